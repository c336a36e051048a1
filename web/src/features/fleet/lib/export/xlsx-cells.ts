// One export cell as Excel should hold it. Our numbers and dates are typed, so they sort, sum
// and filter as numbers and dates. A user's cell comes back as the reader gave it to us: a
// number when its text is one a spreadsheet would show exactly so, a date when it is YYYY-MM-DD
// (how the XLSX reader turns a date cell into text), text otherwise, so "007" keeps its zeros
// and a 16-digit id is not rounded. Never a formula: text that reads "=1+1" stays text.
import { isCalendarDate } from "@vics/shared";
import type { Cell } from "write-excel-file/browser";
import type { ExportColumnKind } from "./export-columns.ts";
import { outcomeFill } from "./outcome-fills.ts";

/** How a UK Excel shows a date. The cell holds the date itself, so it sorts and filters as one. */
const EXCEL_DATE_FORMAT = "dd/mm/yyyy";

/** A date and time, as the export writes it in UK time. */
const EXCEL_DATE_TIME_FORMAT = "dd/mm/yyyy hh:mm";

/** How a UK Excel shows pounds; the cell holds the number, so it sums. */
const EXCEL_MONEY_FORMAT = "£#,##0.00";

/** Excel keeps 15 significant digits; a longer number is an id, kept as text. */
const MAX_DIGITS = 15;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;
const WHOLE_NUMBER = /^-?\d{1,15}$/;
/** "£120.00", "£1,200.50", "£150", "-£5.00": pounds, with their pence or whole. */
const POUNDS = /^(-?)£(\d{1,3}(?:,\d{3})*|\d+)(?:\.(\d{2}))?$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2}) (\d{2}):(\d{2})$/;
/** Excel's serial dates are wrong before 1 March 1900 (its 1900 leap-year bug). */
const FIRST_EXCEL_DATE = Date.UTC(1900, 2, 1);

/** 1000, -3, 2.5; not "007", "1e5", "2.50", "-0", "+5" or 16 digits: those would not read back as written. */
export function plainNumber(text: string): number | undefined {
  if (!PLAIN_NUMBER.test(text)) return undefined;
  if (text.replace(/[-.]/g, "").length > MAX_DIGITS) return undefined;
  const value = Number(text);
  return String(value) === text ? value : undefined;
}

/** A real calendar day written YYYY-MM-DD, as midnight UTC (what Excel's serial dates count). */
export function isoDate(text: string): Date | undefined {
  // 2026-02-30 and 2026-13-01 are no days.
  if (!isCalendarDate(text)) return undefined;
  const date = new Date(`${text}T00:00:00Z`);
  return date.getTime() >= FIRST_EXCEL_DATE ? date : undefined;
}

/**
 * "2026-11-29 10:02" as that wall-clock moment counted in UTC: an Excel date-time has no time
 * zone, so the cell shows the UK time the file wrote. Undefined for anything else.
 */
export function fileDateTime(text: string): Date | undefined {
  const match = DATE_TIME.exec(text);
  const day = match && isoDate(match[1] ?? "");
  const hours = Number(match?.[2]);
  const minutes = Number(match?.[3]);
  if (!day || hours > 23 || minutes > 59) return undefined;
  return new Date(day.getTime() + (hours * 60 + minutes) * 60_000);
}

/** The pounds that `text` writes ("£1,200.50" is 1200.5); undefined for anything else. */
export function pounds(text: string): number | undefined {
  const match = POUNDS.exec(text);
  if (!match) return undefined;
  const [, sign, whole = "", pence = "0"] = match;
  const value = (Number(whole.replaceAll(",", "")) * 100 + Number(pence)) / 100;
  return sign ? -value : value;
}

export function xlsxCell(text: string, kind: ExportColumnKind): Cell {
  if (text === "") return null;
  const date = kind === "date" || kind === "user" ? isoDate(text) : undefined;
  if (date) return { value: date, type: Date, format: EXCEL_DATE_FORMAT };
  const moment = kind === "datetime" ? fileDateTime(text) : undefined;
  if (moment)
    return { value: moment, type: Date, format: EXCEL_DATE_TIME_FORMAT };
  const number =
    kind === "number" && WHOLE_NUMBER.test(text)
      ? Number(text)
      : kind === "user"
        ? plainNumber(text)
        : undefined;
  if (number !== undefined) return { value: number, type: Number };
  const money = kind === "money" ? pounds(text) : undefined;
  if (money !== undefined)
    return { value: money, type: Number, format: EXCEL_MONEY_FORMAT };
  if (kind === "outcome")
    return { value: text, type: String, ...outcomeFill(text) };
  return { value: text, type: String };
}

const MIN_WIDTH = 8;
const MAX_WIDTH = 50;

/** Characters wide enough for a column's longest line (header included), within limits. */
export function columnWidths(
  table: readonly (readonly string[])[],
): { width: number }[] {
  const longest: number[] = [];
  for (const row of table) {
    row.forEach((text, column) => {
      const length = text.includes("\n")
        ? Math.max(...text.split("\n").map((line) => line.length))
        : text.length;
      if (length > (longest[column] ?? 0)) longest[column] = length;
    });
  }
  return Array.from(longest, (length = 0) => ({
    // A margin of two: bold header text is wider than its count of characters.
    width: Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, length + 2)),
  }));
}
