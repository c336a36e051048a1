// The four checks of a compliance record as the dashboard shows them, in a fixed order.
import type { ComplianceRecord, InsuranceRecord } from "@vics/shared";
import {
  finesReason,
  insuranceDetailsOf,
  insuranceReason,
  motReason,
  taxReason,
} from "./check-reasons.ts";

const checkList = new Intl.ListFormat("en-GB", { type: "conjunction" });

export type CheckId = "insurance" | "mot" | "tax" | "fines";

export interface CheckBadge {
  id: CheckId;
  name: string;
  passed: boolean;
  /** Why it passed or failed; absent when the service sent no details. */
  reason?: string;
}

/** `today` ("YYYY-MM-DD") dates the insurance reason's "(ends in 10 days)". */
export function checkBadges(
  record: ComplianceRecord,
  today: string,
  insurance?: InsuranceRecord,
): CheckBadge[] {
  const { checks, details } = record;
  return [
    {
      id: "insurance",
      name: "Insurance",
      passed: checks.insuranceValid,
      reason: insuranceReason(
        checks.insuranceValid,
        details?.insurance ?? (insurance && insuranceDetailsOf(insurance)),
        today,
      ),
    },
    {
      id: "mot",
      name: "MOT",
      passed: checks.motValid,
      reason: details && motReason(details.mot),
    },
    {
      id: "tax",
      name: "Road tax",
      passed: checks.roadTaxPaid,
      reason: details && taxReason(details.tax),
    },
    {
      id: "fines",
      name: "Fines",
      passed: checks.noOutstandingFines,
      reason: details && finesReason(details.fines),
    },
  ];
}

/** "All 4 checks passed." or "2 of 4 checks failed: MOT and Road tax." */
export function verdictSummary(badges: CheckBadge[]): string {
  const failed = badges.filter((badge) => !badge.passed);
  if (failed.length === 0) return `All ${badges.length} checks passed.`;
  const names = checkList.format(failed.map((badge) => badge.name));
  return `${failed.length} of ${badges.length} checks failed: ${names}.`;
}
