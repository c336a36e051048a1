// Dates in an import file: ISO (YYYY-MM-DD) or UK (DD/MM/YYYY), one format for the whole file,
// stated by the operator or in the file itself (docs/import.md). Never guessed per row:
// 03/04/2026 is 3 April to a UK source and 4 March to a US one.
import { calendarDate } from "../calendar-date.ts";

export const DATE_FORMATS = ["iso", "uk"] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

/** How each format is written, as the operator sees it in messages and in the file's header. */
export const DATE_FORMAT_PATTERNS: Record<DateFormat, string> = {
  iso: "YYYY-MM-DD",
  uk: "DD/MM/YYYY",
};

const ISO = /^(\d{4})-(\d{2})-(\d{2})$/;
const UK = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

export type DateReading =
  { ok: true; date: string } | { ok: false; reason: string };

/** A cell as an ISO date, or why it is not one in the file's format, in words. */
export function readDate(text: string, format: DateFormat): DateReading {
  const cell = text.trim();
  const pattern = DATE_FORMAT_PATTERNS[format];
  const match = (format === "iso" ? ISO : UK).exec(cell);
  if (!match) {
    const other: DateFormat = format === "iso" ? "uk" : "iso";
    const hint = (other === "iso" ? ISO : UK).test(cell)
      ? ` This looks like ${DATE_FORMAT_PATTERNS[other]}: if the whole file is written that way, say so (--dates ${other}).`
      : "";
    return { ok: false, reason: `Write the date as ${pattern}.${hint}` };
  }
  const [year, month, day] =
    format === "iso"
      ? [match[1], match[2], match[3]]
      : [match[3], match[2], match[1]];
  const date = calendarDate(Number(year), Number(month), Number(day));
  return date
    ? { ok: true, date }
    : { ok: false, reason: `There is no such day (${pattern}).` };
}

/**
 * The format a file states on its first line, as `# dates: DD/MM/YYYY` (or YYYY-MM-DD);
 * undefined when the line states none. Text after "dates:" that names neither is an error the
 * caller reports, so a typo is never read as "no statement".
 */
export function statedDateFormat(
  line: string,
): DateFormat | undefined | { unknown: string } {
  const match = /^#\s*dates\s*:\s*(.*?)\s*$/i.exec(line);
  if (!match) return undefined;
  const stated = (match[1] ?? "").toUpperCase();
  for (const format of DATE_FORMATS)
    if (DATE_FORMAT_PATTERNS[format] === stated) return format;
  return { unknown: match[1] ?? "" };
}
