// When a vehicle's cover, MOT and road tax next fall due, and which fall due soon: the results
// table, the filters, the needs-action order and both exports read them from here, so a fleet
// manager sees one answer for "what must I renew this month?".
import { daysBetween } from "@vics/shared";
import { EXPIRING_SOON_DAYS } from "./expiry.ts";
import type { VehicleResult } from "../results.ts";

export type DueKind = "insurance" | "mot" | "tax";

export interface DueDates {
  /** The current policy's last day, when insured. */
  insurance?: string;
  /** The MOT certificate's expiry, when it is valid today (an expired MOT is already failing). */
  mot?: string;
  /** When road tax is next due, when the vehicle is taxed today. */
  tax?: string;
}

/** The dates still ahead of the vehicle, as far as the run's answer tells them. */
export function dueDates(result: VehicleResult | undefined): DueDates {
  const dates: DueDates = {};
  if (!result) return dates;
  if (result.insurance.status === "insured") {
    dates.insurance = result.insurance.policy.validTo;
  }
  const compliance = result.compliance;
  if (compliance?.status === "checked" && compliance.details) {
    const { mot, tax } = compliance.details;
    if (mot.status === "valid" && mot.expiry) dates.mot = mot.expiry;
    if (tax.status === "taxed" && tax.dueDate) dates.tax = tax.dueDate;
  }
  return dates;
}

export interface DueSoon {
  kind: DueKind;
  date: string;
  /** Whole days from today; 0 when it falls due today. */
  daysLeft: number;
}

/**
 * What falls due within EXPIRING_SOON_DAYS of `today` (the UK's date), soonest first.
 * Empty when nothing does.
 */
export function dueSoon(
  result: VehicleResult | undefined,
  today: string,
): DueSoon[] {
  const dates = dueDates(result);
  const soon: DueSoon[] = [];
  for (const kind of ["insurance", "mot", "tax"] as const) {
    const date = dates[kind];
    if (!date) continue;
    const daysLeft = daysBetween(today, date);
    if (daysLeft >= 0 && daysLeft <= EXPIRING_SOON_DAYS) {
      soon.push({ kind, date, daysLeft });
    }
  }
  return soon.sort((a, b) => a.daysLeft - b.daysLeft);
}

export const DUE_KIND_WORDS: Record<DueKind, string> = {
  insurance: "insurance",
  mot: "MOT",
  tax: "road tax",
};
