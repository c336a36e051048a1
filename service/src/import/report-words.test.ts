import { describe, expect, it } from "vitest";
import { NO_COUNTS } from "../store/import-store.ts";
import { reportWords } from "./report-words.ts";

const what = { kind: "tax", file: "tax.csv" };

describe("the import's report", () => {
  it("names the records kept because a register's fact is newer, counted as unchanged", () => {
    const { text, code } = reportWords(
      {
        outcome: "applied",
        importId: 7,
        counts: { ...NO_COUNTS, rows: 8, changed: 1, unchanged: 7 },
        examples: {
          added: [],
          changed: ["EF56GHI"],
          removed: [],
          kept: ["AB12CDE", "CD34EFG"],
          keptCount: 6,
        },
        ignoredColumns: [],
      },
      what,
    );
    expect(code).toBe(0);
    expect(text.split("\n")).toEqual([
      "Imported tax.csv (tax) as import 7.",
      "  8 rows read: 0 added, 1 changed, 7 unchanged, 0 removed, 0 refused.",
      "  Changed: EF56GHI",
      "  Kept, a register's fact is newer than the file's: AB12CDE, CD34EFG and 4 more",
    ]);
  });

  it("says nothing of kept records when there are none", () => {
    const { text } = reportWords(
      {
        outcome: "dry-run",
        counts: { ...NO_COUNTS, rows: 1, added: 1 },
        examples: {
          added: ["AB12CDE"],
          changed: [],
          removed: [],
          kept: [],
          keptCount: 0,
        },
        ignoredColumns: [],
      },
      what,
    );
    expect(text).not.toContain("Kept");
    expect(text).toContain("Added: AB12CDE");
  });
});
