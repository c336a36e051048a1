// The export's compliance columns: the verdict, each check's Pass or Fail and its reason. The
// reasons are the compliance page's wording (lib/compliance-reasons.ts), with dates left as
// YYYY-MM-DD for spreadsheets.
import {
  finesReason,
  insuranceReason,
  motReason,
  taxReason,
} from "../../../../lib/compliance-reasons.ts";
import type { ComplianceOutcome } from "../fleet-types.ts";

export const COMPLIANCE_COLUMNS = [
  "Compliant",
  "Insurance check",
  "Insurance reason",
  "MOT check",
  "MOT reason",
  "Road tax check",
  "Road tax reason",
  "Fines check",
  "Fines reason",
];

/** The nine compliance cells; blank unless the vehicle's compliance was answered. */
export function complianceCells(
  compliance: ComplianceOutcome | undefined,
): string[] {
  if (compliance?.status !== "checked") return COMPLIANCE_COLUMNS.map(() => "");
  const { compliant, checks, details } = compliance;
  const verdict = (passed: boolean) => (passed ? "Pass" : "Fail");
  return [
    compliant ? "Yes" : "No",
    verdict(checks.insuranceValid),
    insuranceReason(checks.insuranceValid, details?.insurance) ?? "",
    verdict(checks.motValid),
    details ? motReason(details.mot) : "",
    verdict(checks.roadTaxPaid),
    details ? taxReason(details.tax) : "",
    verdict(checks.noOutstandingFines),
    details ? finesReason(details.fines) : "",
  ];
}
