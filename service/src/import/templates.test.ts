import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { IMPORT_KINDS } from "@vics/shared/import/rows";
import { readImportFile } from "./read-rows.ts";

const TEMPLATES = join(import.meta.dirname, "../../../docs/import-templates");

describe("the templates docs/import.md offers", () => {
  it.each(IMPORT_KINDS)(
    "%s.csv: two example rows, both read as good rows, no column left out",
    async (kind) => {
      const bytes = readFileSync(join(TEMPLATES, `${kind}.csv`));
      const reading = readImportFile(
        (async function* () {
          yield new Uint8Array(bytes);
        })(),
        { kind },
      );
      const items = [];
      for await (const item of reading.rows) items.push(item);
      expect(items.map((item) => [item.line, item.ok])).toEqual([
        [2, true],
        [3, true],
      ]);
      expect(reading.facts().ignoredColumns).toEqual([]);
    },
  );

  it("policies.jsonl: the JSON Lines form of the same two rows", async () => {
    const bytes = readFileSync(join(TEMPLATES, "policies.jsonl"));
    const reading = readImportFile(
      (async function* () {
        yield new Uint8Array(bytes);
      })(),
      { kind: "policies", format: "jsonl" },
    );
    const rows = [];
    for await (const item of reading.rows) rows.push(item);
    expect(rows.map((item) => [item.line, item.ok])).toEqual([
      [1, true],
      [2, true],
    ]);
    const csv = readImportFile(
      (async function* () {
        yield new Uint8Array(readFileSync(join(TEMPLATES, "policies.csv")));
      })(),
      { kind: "policies" },
    );
    const fromCsv = [];
    for await (const item of csv.rows) fromCsv.push(item.ok && item.row);
    expect(rows.map((item) => item.ok && item.row)).toEqual(fromCsv);
  });
});
