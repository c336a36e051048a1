// The CSV a fleet manager can download, fill in and upload: the registration column first,
// then the kind of columns the check carries through to the results (all made up).
export const TEMPLATE_FILE_NAME = "vics-fleet-template.csv";

const TEMPLATE_ROWS = [
  ["Registration", "Fleet number", "Driver", "Depot"],
  ["AB12 CDE", "F001", "Sam Taylor", "Leeds"],
  ["MT15 EXP", "F002", "Alex Morgan", "Bristol"],
];

/** CRLF and a UTF-8 BOM, as our exports, so Excel opens it cleanly. */
export function templateCsv(): string {
  return (
    "\uFEFF" + TEMPLATE_ROWS.map((row) => row.join(",")).join("\r\n") + "\r\n"
  );
}
