// From a workbook's sheets to one SourceTable: the sheet the user chose, or else the one that
// holds the most registrations, with every sheet in use listed so the page can offer them. A
// summary sheet in front of the fleet ("Fleet summary – Q4") is then never read as the list.
import { isValidRegistration } from "@vics/shared";
import type {
  ParseFailure,
  SheetSummary,
  SourceTable,
} from "../fleet-types.ts";
import { buildTable } from "./build-table.ts";
import { guessRegistrationColumn } from "./detect-column.ts";
import { parseFailures } from "./parse-failures.ts";
import type { WorkbookSheet } from "./parse-xlsx.ts";

function registrationCount(table: SourceTable): number {
  const column = guessRegistrationColumn(table);
  if (column === null) return 0;
  return table.rows.filter((row) =>
    isValidRegistration(row.cells[column] ?? ""),
  ).length;
}

/** The file's name with the sheet's, so the review and the run say which sheet was read. */
export function sheetSource(file: string, sheet: string): string {
  return `${file} (sheet “${sheet}”)`;
}

/** `requested`: the sheet's name, when the user chose one. */
export function workbookTable(
  file: string,
  sheets: WorkbookSheet[],
  requested?: string,
): SourceTable | ParseFailure {
  const used = sheets.filter((sheet) => sheet.rows.length > 0);
  const [only] = used;
  if (!only) return parseFailures.emptyFile();
  // One sheet in use (an empty "Sheet2" beside it does not count): nothing to choose.
  if (used.length === 1) return buildTable(file, only.rows);
  const tables = used.map((sheet) => ({
    name: sheet.name,
    table: buildTable(sheetSource(file, sheet.name), sheet.rows),
  }));
  const summaries: SheetSummary[] = tables.map(({ name, table }) =>
    "code" in table
      ? { name, rows: 0, registrations: 0 }
      : {
          name,
          rows: table.rows.length,
          registrations: registrationCount(table),
        },
  );
  const chosen =
    requested === undefined
      ? bestSheet(summaries)
      : summaries.findIndex((sheet) => sheet.name === requested);
  const picked = tables[chosen];
  if (!picked) return parseFailures.sheetGone(requested ?? "");
  if ("code" in picked.table) return picked.table;
  return { ...picked.table, sheet: picked.name, sheets: summaries };
}

/** The sheet with the most registrations; with none anywhere, the first with rows. */
function bestSheet(summaries: SheetSummary[]): number {
  let best = summaries.findIndex((sheet) => sheet.rows > 0);
  for (const [index, sheet] of summaries.entries()) {
    if (sheet.registrations > (summaries[best]?.registrations ?? 0))
      best = index;
  }
  return Math.max(best, 0);
}
