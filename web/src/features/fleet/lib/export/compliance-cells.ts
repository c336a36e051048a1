// The export's compliance columns: the verdict, each check's Pass or Fail and its reason.
// The reasons say what the compliance page says (features/compliance/lib/check-reasons.ts),
// with dates as YYYY-MM-DD for spreadsheets; the wording is copied, not imported, because
// features never import each other and it is a few lines.
import type { ComplianceDetails } from "@vics/shared";
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

const wholePounds = new Intl.NumberFormat("en-GB", {
  style: "currency",
  currency: "GBP",
  maximumFractionDigits: 0,
});
const poundsAndPence = new Intl.NumberFormat("en-GB", {
  style: "currency",
  currency: "GBP",
});

function pounds(pence: number): string {
  return pence % 100 === 0
    ? wholePounds.format(pence / 100)
    : poundsAndPence.format(pence / 100);
}

/** The day after `isoDate`: the service's tax dueDate is the last day the vehicle was taxed. */
function nextDay(isoDate: string): string {
  const date = new Date(isoDate + "T00:00:00Z");
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}

export function motReason({
  status,
  expiry,
}: ComplianceDetails["mot"]): string {
  switch (status) {
    case "valid":
      return expiry ? `MOT valid until ${expiry}` : "MOT valid";
    case "expired":
      return expiry ? `MOT expired on ${expiry}` : "MOT expired";
    case "exempt":
      return "MOT not yet due: under 3 years old";
    case "none":
      return "No MOT on record";
  }
}

export function taxReason({
  status,
  dueDate,
}: ComplianceDetails["tax"]): string {
  switch (status) {
    case "taxed":
      return dueDate ? `Taxed until ${dueDate}` : "Taxed";
    case "sorn":
      return "SORN: not taxed for road use";
    case "untaxed":
      return dueDate ? `Untaxed since ${nextDay(dueDate)}` : "Not taxed";
  }
}

export function finesReason({
  count,
  totalPence,
}: ComplianceDetails["fines"]): string {
  if (count === 0) return "No unpaid fines";
  const fines = count === 1 ? "1 unpaid fine" : `${count} unpaid fines`;
  return `${fines}, ${pounds(totalPence)} total`;
}

/** Only when the details agree with the check, as on the compliance page. */
export function insuranceReason(
  insuranceValid: boolean,
  insurance: ComplianceDetails["insurance"],
): string {
  if (!insurance || (insurance.status === "insured") !== insuranceValid)
    return "";
  const { status, validTo } = insurance;
  switch (status) {
    case "insured":
      return validTo ? `Insured until ${validTo}` : "";
    case "lapsed":
      return validTo ? `Insurance lapsed on ${validTo}` : "Insurance lapsed";
    case "none":
      return "No insurance on record";
  }
}

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
    insuranceReason(checks.insuranceValid, details?.insurance),
    verdict(checks.motValid),
    details ? motReason(details.mot) : "",
    verdict(checks.roadTaxPaid),
    details ? taxReason(details.tax) : "",
    verdict(checks.noOutstandingFines),
    details ? finesReason(details.fines) : "",
  ];
}
