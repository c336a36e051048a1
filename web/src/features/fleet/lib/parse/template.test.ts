import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { parseFile } from "./parse-file.ts";
import { prepareRows } from "./prepare-rows.ts";
import { guessRegistrationColumn } from "./detect-column.ts";
import { TEMPLATE_FILE_NAME, templateCsv } from "./template.ts";
import { textFile } from "./test-files.ts";

describe("the template CSV", () => {
  it("has the header and two example rows, CRLF, with a BOM", () => {
    const csv = templateCsv();
    expect(
      csv.startsWith("\uFEFFRegistration,Fleet number,Driver,Depot\r\n"),
    ).toBe(true);
    const { data } = Papa.parse<string[]>(csv.slice(1), {
      skipEmptyLines: true,
    });
    expect(data).toHaveLength(3);
    expect(TEMPLATE_FILE_NAME).toBe("vics-fleet-template.csv");
  });

  it("reads back as a list of valid vehicles with the registration column found", async () => {
    const table = await parseFile(TEMPLATE_FILE_NAME, textFile(templateCsv()));
    if ("code" in table) throw new Error(table.message);
    const column = guessRegistrationColumn(table);
    expect(column).toBe(0);
    const { rows, extraColumns } = prepareRows(table, column ?? 0);
    expect(extraColumns).toEqual(["Fleet number", "Driver", "Depot"]);
    expect(rows.every((row) => row.registration && !row.invalid)).toBe(true);
  });
});
