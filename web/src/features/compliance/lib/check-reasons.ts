// The one-line reason under each check's Pass or Fail, from the optional `details` extension
// (insurance, MOT, road tax, fines), or from the insurance record when the details lack it.
import type { ComplianceDetails, InsuranceRecord } from "@vics/shared";
import {
  describePolicyEnd,
  formatDate,
  isExpiringSoon,
} from "../../../lib/dates.ts";
import { formatPounds } from "./money.ts";

export function motReason({
  status,
  expiry,
}: ComplianceDetails["mot"]): string {
  switch (status) {
    case "valid":
      return expiry ? `MOT valid until ${formatDate(expiry)}` : "MOT valid";
    case "expired":
      return expiry ? `MOT expired on ${formatDate(expiry)}` : "MOT expired";
    case "exempt":
      return "MOT not yet due: under 3 years old";
    case "none":
      return "No MOT on record";
  }
}

/** The day after `isoDate` ("YYYY-MM-DD"). */
function nextDay(isoDate: string): string {
  const date = new Date(isoDate + "T00:00:00Z");
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}

export function taxReason({
  status,
  dueDate,
}: ComplianceDetails["tax"]): string {
  switch (status) {
    case "taxed":
      return dueDate ? `Taxed until ${formatDate(dueDate)}` : "Taxed";
    case "sorn":
      return "SORN: not taxed for road use";
    case "untaxed":
      // The service's dueDate is the last day the vehicle was taxed, so it has
      // been untaxed since the day after.
      return dueDate
        ? `Untaxed since ${formatDate(nextDay(dueDate))}`
        : "Not taxed";
  }
}

export function finesReason({
  count,
  totalPence,
}: ComplianceDetails["fines"]): string {
  if (count === 0) return "No unpaid fines";
  const fines = count === 1 ? "1 unpaid fine" : `${count} unpaid fines`;
  return `${fines}, ${formatPounds(totalPence)} total`;
}

type InsuranceDetails = NonNullable<ComplianceDetails["insurance"]>;

/** An insurance record in the shape of the compliance record's `details.insurance`. */
export function insuranceDetailsOf(record: InsuranceRecord): InsuranceDetails {
  if (!record.policy) return { status: "none", validTo: null };
  const status = record.insured ? "insured" : "lapsed";
  return { status, validTo: record.policy.validTo };
}

/**
 * From the record's own `details.insurance`, or else from the insurance record; only when it
 * agrees with the check (an insurance record may be older, from the cache). Cover ending soon
 * says so in words, as the insurance page's "Valid to" does: "(ends in 10 days)".
 */
export function insuranceReason(
  insuranceValid: boolean,
  insurance: InsuranceDetails | undefined,
  today: string,
): string | undefined {
  if (!insurance || (insurance.status === "insured") !== insuranceValid)
    return undefined;
  const { status, validTo } = insurance;
  switch (status) {
    case "insured": {
      if (!validTo) return undefined;
      const until = `Insured until ${formatDate(validTo)}`;
      return isExpiringSoon(validTo, today)
        ? `${until} (${describePolicyEnd(validTo, today)})`
        : until;
    }
    case "lapsed":
      return validTo
        ? `Insurance lapsed on ${formatDate(validTo)}`
        : "Insurance lapsed";
    case "none":
      return "No insurance on record";
  }
}
