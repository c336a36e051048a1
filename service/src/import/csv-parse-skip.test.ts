// The case the import's reader exists to avoid (docs/decisions/040-imports.md): csv-parse, told
// to skip bad records, swallows every line after an unclosed quote into the one bad value and
// reports a single skip at the end of the file, so the good rows after it are lost without a
// word. Pinned here against the csv-parse in the lockfile: should it ever change, this fails and
// the reader's refusal of the whole file can be looked at again.
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { FileRefused } from "./file-refused.ts";
import { readImportFile } from "./read-rows.ts";

const FILE = [
  "registration,make,model,year,colour,first_registered",
  "AB12CDE,Ford,Focus,2019,Blue,2019-03-01",
  '"CD34EFG,Ford,Focus,2019,Blue,2019-03-01',
  "EF56GHI,Ford,Focus,2019,Blue,2019-03-01",
  "GH78IJK,Ford,Focus,2019,Blue,2019-03-01",
  "",
].join("\n");

describe("an unclosed quote", () => {
  it("csv-parse skipping bad records: the rows after it vanish, one skip reported at the end", () => {
    const skipped: { code: string; line: number }[] = [];
    const records = parse(FILE, {
      skip_records_with_error: true,
      on_skip: (error) => {
        if (error)
          skipped.push({ code: error.code, line: Number(error.lines) });
      },
    }) as string[][];
    expect(records.map((record) => record[0])).toEqual([
      "registration",
      "AB12CDE",
    ]);
    // Lines 4 and 5 were good rows: neither is a record, and no skip names them.
    expect(skipped).toEqual([{ code: "CSV_QUOTE_NOT_CLOSED", line: 5 }]);
  });

  it("the import's reader: the whole file refused, at the line where the quote opens", async () => {
    const reading = readImportFile(
      (async function* () {
        yield new TextEncoder().encode(FILE);
      })(),
      { kind: "vehicles" },
    );
    const error = await (async () => {
      for await (const _row of reading.rows) void _row;
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FileRefused);
    expect((error as FileRefused).line).toBe(3);
  });
});
