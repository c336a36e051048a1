// The one-line reason under each check's Pass or Fail, from the optional `details` extension
// (insurance, MOT, road tax, fines), or from the insurance record when the details lack it.
// The wording is lib/compliance-reasons.ts's, shared with the fleet export; this page writes
// dates in words and says when cover ends soon.
import type { ComplianceDetails, InsuranceRecord } from "@vics/shared";
import {
  finesReason,
  insuranceReason as insuranceWords,
  motReason as motWords,
  taxReason as taxWords,
  type InsuranceDetails,
} from "../../../lib/compliance-reasons.ts";
import {
  describePolicyEnd,
  formatDate,
  isExpiringSoon,
} from "../../../lib/dates.ts";

export { finesReason };

export function motReason(mot: ComplianceDetails["mot"]): string {
  return motWords(mot, formatDate);
}

export function taxReason(tax: ComplianceDetails["tax"]): string {
  return taxWords(tax, formatDate);
}

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
  const reason = insuranceWords(insuranceValid, insurance, formatDate);
  const validTo = insurance?.status === "insured" ? insurance.validTo : null;
  return reason && validTo && isExpiringSoon(validTo, today)
    ? `${reason} (${describePolicyEnd(validTo, today)})`
    : reason;
}
