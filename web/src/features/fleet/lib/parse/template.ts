// The CSV a fleet manager can download, fill in and upload: the registration column first,
// then the kind of columns the check carries through to the results (all made up).
import { toCsv } from "@vics/shared";

export const TEMPLATE_FILE_NAME = "vics-fleet-template.csv";

const TEMPLATE_ROWS = [
  ["Registration", "Fleet number", "Driver", "Depot"],
  ["AB12 CDE", "F001", "Sam Taylor", "Leeds"],
  ["MT15 EXP", "F002", "Alex Morgan", "Bristol"],
];

/** Written as our exports are (CRLF, a UTF-8 BOM, formula-safe), so Excel opens it cleanly. */
export function templateCsv(): string {
  return toCsv(TEMPLATE_ROWS);
}
