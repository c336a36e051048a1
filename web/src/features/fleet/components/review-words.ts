// Words of the review step, kept apart so the headings and status messages count the same rows
// the same way as the summary above them.
import { count } from "../../../lib/count.ts";

/** "Rows with an invalid registration: 1 to fix, 3 excluded". */
export function invalidRowsHeading(open: number, excluded: number): string {
  const parts = [
    ...(open > 0 ? [`${count(open)} to fix`] : []),
    ...(excluded > 0 ? [`${count(excluded)} excluded`] : []),
  ];
  return `Rows with an invalid registration: ${parts.join(", ")}`;
}

/** After a fix: how many rows are left to fix, or that none are. */
export function rowsLeftWords(left: number, wasLast: boolean): string {
  if (wasLast) return "All rows now have a valid registration.";
  if (left === 0) return "No rows left to fix.";
  return `${count(left)} ${left === 1 ? "row" : "rows"} left to fix.`;
}
