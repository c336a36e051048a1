// The export's due-date cells, from lib/due-dates.ts as the results table reads them: the MOT's
// and road tax's next due dates (a compliance check's), then whether anything falls due within
// 30 days and what, soonest first. Dates YYYY-MM-DD, as the rest of the export.
import { DUE_KIND_WORDS, dueDates, dueSoon } from "@vics/fleet";
import type { VehicleResult } from "../fleet-types.ts";

export const DUE_SOON_COLUMN = "Due within 30 days";

/**
 * The flag's header names the day it counts from ("Due within 30 days of 2026-11-28"): a file
 * opened a week later must not read as if the 30 days began then.
 */
export function dueSoonColumn(today: string): string {
  return `${DUE_SOON_COLUMN} of ${today}`;
}

/** "Yes: road tax, MOT", "No", or blank when VICS has no answer to go on. */
function dueSoonCell(result: VehicleResult | undefined, today: string): string {
  const status = result?.insurance.status;
  if (status !== "insured" && status !== "not-insured") return "";
  const soon = dueSoon(result, today);
  if (soon.length === 0) return "No";
  return `Yes: ${soon.map((due) => DUE_KIND_WORDS[due.kind]).join(", ")}`;
}

/** [MOT due, Tax due,] Due within 30 days: the first two only when compliance was checked. */
export function dueCells(
  result: VehicleResult | undefined,
  today: string,
  checkCompliance: boolean,
): string[] {
  const flag = dueSoonCell(result, today);
  if (!checkCompliance) return [flag];
  const dates = dueDates(result);
  return [dates.mot ?? "", dates.tax ?? "", flag];
}
