// Every way a list can fail to read, in words a fleet manager can act on, and the limits that
// keep a hostile or broken file (random bytes, a zip bomb, one endless line) from hanging the
// parser: each limit is far above what a list of FLEET_MAX_ROWS vehicles needs.
import { FLEET_MAX_ROWS, type ParseFailure } from "../fleet-types.ts";
import { rowName } from "../row-words.ts";
import { count } from "../../../../lib/count.ts";

const MB = 1024 * 1024;

/** The largest file read at all; a 100,000-row list with a dozen columns is a few MB. */
export const MAX_FILE_BYTES = 100 * MB;
/** The most an XLSX may unpack to (the sum of its zip entries' declared sizes). */
export const MAX_UNZIPPED_BYTES = 200 * MB;
/** The longest line of a text file: a row of a vehicle list is a few hundred characters. */
export const MAX_LINE_CHARS = 100_000;
/** Excel's own limit for one cell. */
export const MAX_CELL_CHARS = 32_767;
export const MAX_COLUMNS = 500;

const ACCEPTED = "an .xlsx, .csv, .tsv or .txt file";
const megabytes = (bytes: number) => `${count(Math.ceil(bytes / MB))} MB`;

export const parseFailures = {
  emptyPaste: (): ParseFailure => ({
    code: "empty",
    message:
      "The list is empty. Paste registrations, one per line or separated by commas.",
  }),
  noPastedRegistrations: (): ParseFailure => ({
    code: "no-rows",
    message:
      "There are no registrations in the list, only separators. Paste registrations, one per line or separated by commas.",
  }),
  emptyFile: (): ParseFailure => ({
    code: "empty",
    message: `This file is empty. Choose ${ACCEPTED} with one vehicle per row.`,
  }),
  headerOnly: (): ParseFailure => ({
    code: "no-rows",
    message:
      "This file has a header row but no vehicles under it. Add one vehicle per row and upload it again.",
  }),
  tooManyRows: (what: "list" | "file"): ParseFailure => ({
    code: "too-many-rows",
    message: `This ${what} has more than ${count(FLEET_MAX_ROWS)} rows. Split it into ${what}s of up to ${count(FLEET_MAX_ROWS)} rows.`,
  }),
  // Size limits share the row limit's code: the way forward is the same, a smaller file.
  fileTooLarge: (bytes: number): ParseFailure => ({
    code: "too-many-rows",
    message: `This file is ${megabytes(bytes)}, more than the ${megabytes(MAX_FILE_BYTES)} we can read. A list of up to ${count(FLEET_MAX_ROWS)} vehicles is much smaller: split it into smaller files.`,
  }),
  unzipsTooLarge: (): ParseFailure => ({
    code: "too-many-rows",
    message: `This spreadsheet unpacks to more than ${megabytes(MAX_UNZIPPED_BYTES)}, far more than a list of ${count(FLEET_MAX_ROWS)} vehicles needs. Check it is the right file, or save the list as .csv and upload that.`,
  }),
  unsupportedType: (name: string): ParseFailure => ({
    code: "not-a-spreadsheet",
    message: `We cannot read "${name}". Choose ${ACCEPTED}.`,
  }),
  notASpreadsheet: (): ParseFailure => ({
    code: "not-a-spreadsheet",
    message: `This file is not a spreadsheet or a text list. Choose ${ACCEPTED}.`,
  }),
  notAWorkbook: (): ParseFailure => ({
    code: "not-a-spreadsheet",
    message:
      "This file is a zip archive, not an Excel workbook. Open the list in your spreadsheet program, save it as .xlsx or .csv, and upload it again.",
  }),
  oldExcel: (): ParseFailure => ({
    code: "not-a-spreadsheet",
    message:
      "This is an old Excel file (.xls), which we cannot read. Open it in Excel, save it as .xlsx or .csv, and upload it again.",
  }),
  protected: (): ParseFailure => ({
    code: "protected",
    message:
      "This spreadsheet is protected with a password. Remove the password in Excel, save it, and upload it again.",
  }),
  corruptWorkbook: (): ParseFailure => ({
    code: "corrupt",
    message:
      "This spreadsheet is damaged and cannot be read. Open it in Excel, save it as .xlsx or .csv, and upload it again.",
  }),
  sheetGone: (sheet: string): ParseFailure => ({
    code: "corrupt",
    message: `There is no sheet called “${sheet}” in this file now. Upload the file again and choose one of its sheets.`,
  }),
  misquoted: (line: number): ParseFailure => ({
    code: "corrupt",
    message: `Line ${count(line)} has a quote mark (") that is not closed where it should be, so the lines after it cannot be told apart. Put the quote right, or remove it, and upload the file again.`,
  }),
  lineTooLong: (line: number): ParseFailure => ({
    code: "not-a-spreadsheet",
    message: `Line ${count(line)} is more than ${count(MAX_LINE_CHARS)} characters long, so this is not a list of vehicles we can read. Check that you chose the right file.`,
  }),
  pastedItemTooLong: (line: number): ParseFailure => ({
    code: "not-a-spreadsheet",
    message: `Line ${count(line)} of the list has more than ${count(MAX_CELL_CHARS)} characters without a break, so this is not a list of registrations. Paste one registration per line, or separated by commas.`,
  }),
  pastedLineTooLong: (line: number): ParseFailure => ({
    code: "not-a-spreadsheet",
    message: `Line ${count(line)} of the list has more than ${count(MAX_CELL_CHARS)} characters and no registration in it, so this is not a list of registrations. Paste one registration per line, or separated by commas.`,
  }),
  cellTooLong: (line: number): ParseFailure => ({
    code: "not-a-spreadsheet",
    message: `${rowName(line)} has a cell of more than ${count(MAX_CELL_CHARS)} characters, so this is not a list of vehicles we can read. Check that you chose the right file.`,
  }),
  tooManyColumns: (): ParseFailure => ({
    code: "not-a-spreadsheet",
    message: `This file has more than ${count(MAX_COLUMNS)} columns. Keep the registration column and the columns you need, and upload it again.`,
  }),
  unreadable: (kind: "paste" | "file"): ParseFailure =>
    kind === "paste"
      ? {
          code: "corrupt",
          message:
            "Something went wrong while reading the list. Try again, or paste a shorter list.",
        }
      : {
          code: "corrupt",
          message: `Something went wrong while reading this file. It may be damaged: save it again as .xlsx or .csv and upload it again.`,
        },
};
