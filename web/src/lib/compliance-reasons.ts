// The one-line reason under each compliance check (insurance, MOT, road tax, fines), worded
// once for every screen and file that shows one. Each caller says how a date reads: the
// compliance page in words ("3 March 2027"), the fleet export as YYYY-MM-DD for spreadsheets.
import { addDays, formatPounds, type ComplianceDetails } from "@vics/shared";

/** How a "YYYY-MM-DD" date is written in a reason. */
export type DateWords = (isoDate: string) => string;

export type InsuranceDetails = NonNullable<ComplianceDetails["insurance"]>;

const asIs: DateWords = (isoDate) => isoDate;

export function motReason(
  { status, expiry }: ComplianceDetails["mot"],
  date: DateWords = asIs,
): string {
  switch (status) {
    case "valid":
      return expiry ? `MOT valid until ${date(expiry)}` : "MOT valid";
    case "expired":
      return expiry ? `MOT expired on ${date(expiry)}` : "MOT expired";
    case "exempt":
      return "MOT not yet due: under 3 years old";
    case "none":
      return "No MOT on record";
  }
}

export function taxReason(
  { status, dueDate }: ComplianceDetails["tax"],
  date: DateWords = asIs,
): string {
  switch (status) {
    case "taxed":
      return dueDate ? `Taxed until ${date(dueDate)}` : "Taxed";
    case "sorn":
      return "SORN: not taxed for road use";
    case "untaxed":
      // The service's dueDate is the last day the vehicle was taxed, so it has been untaxed
      // since the day after.
      return dueDate
        ? `Untaxed since ${date(addDays(dueDate, 1))}`
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

/**
 * Only when the details agree with the check: an insurance record may be older (from a
 * cache) than the compliance answer, and a reason that contradicts the verdict misleads.
 */
export function insuranceReason(
  insuranceValid: boolean,
  insurance: InsuranceDetails | undefined,
  date: DateWords = asIs,
): string | undefined {
  if (!insurance || (insurance.status === "insured") !== insuranceValid)
    return undefined;
  const { status, validTo } = insurance;
  switch (status) {
    case "insured":
      return validTo ? `Insured until ${date(validTo)}` : undefined;
    case "lapsed":
      return validTo
        ? `Insurance lapsed on ${date(validTo)}`
        : "Insurance lapsed";
    case "none":
      return "No insurance on record";
  }
}
