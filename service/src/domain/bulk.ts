import type {
  BulkComplianceItem,
  BulkItem,
  ComplianceChecks,
  Policy,
  Vehicle,
} from "@vics/shared";
import { type ComplianceFacts, complianceVerdict } from "./compliance.ts";
import type { IsoDate } from "@vics/shared";
import { insuranceStatus } from "./insurance.ts";

/** The vehicle as an answer shows it, with its first registration (decision 041). */
export const answerVehicle = (facts: {
  vehicle: Vehicle;
  firstRegistered: IsoDate;
}): Vehicle => ({ ...facts.vehicle, firstRegistered: facts.firstRegistered });

/** What every successful item shows: the vehicle. */
type VehicleAnswered = { vehicle: Vehicle; firstRegistered: IsoDate };

/** What a bulk insurance item is judged on: its policies, and the vehicle. */
export type InsuranceItemFacts = VehicleAnswered &
  Pick<ComplianceFacts, "policies">;

/**
 * One submitted registration, looked up: the vehicle's facts (as much of them as its check
 * reads), or why there are none.
 */
export type BulkOutcome<Facts = ComplianceFacts & VehicleAnswered> =
  | { registration: string; facts: Facts }
  | { registration: string; error: string };

/**
 * The policy only on an insured item, the vehicle on every successful one, and the last lapsed
 * policy (or null) on one that is not insured (decision 021, docs/contract.md).
 */
export function bulkInsuranceItem(
  outcome: BulkOutcome<InsuranceItemFacts>,
  today: IsoDate,
): BulkItem {
  const { registration } = outcome;
  if ("error" in outcome)
    return { registration, insured: false, error: outcome.error };
  const { insured, policy } = insuranceStatus(outcome.facts.policies, today);
  return {
    registration,
    insured,
    ...insurancePolicies(insured, policy),
    vehicle: answerVehicle(outcome.facts),
  };
}

/** `policy` means insured; a lapsed policy goes under `lastPolicy`, never under `policy`. */
function insurancePolicies(
  insured: boolean,
  policy: Policy | null,
): Pick<BulkItem, "policy" | "lastPolicy"> {
  if (!insured) return { lastPolicy: policy };
  return policy ? { policy } : {};
}

const NO_CHECKS: ComplianceChecks = {
  insuranceValid: false,
  motValid: false,
  roadTaxPaid: false,
  noOutstandingFines: false,
};

/**
 * The single compliance check's verdict per vehicle, with the policy behind it; a failed item
 * fails all four checks.
 */
export function bulkComplianceItem(
  outcome: BulkOutcome,
  today: IsoDate,
): BulkComplianceItem {
  const { registration } = outcome;
  if ("error" in outcome)
    return {
      registration,
      compliant: false,
      checks: { ...NO_CHECKS },
      error: outcome.error,
    };
  // The policy behind insuranceValid, under the bulk insurance item's names (decision 021), so
  // that a fleet run needs no bulk insurance request beside this one.
  const insurance = insuranceStatus(outcome.facts.policies, today);
  const verdict = complianceVerdict(outcome.facts, today, insurance);
  const { insured, policy } = insurance;
  return {
    registration,
    compliant: verdict.compliant,
    checks: verdict.checks,
    details: verdict.details,
    ...insurancePolicies(insured, policy),
    vehicle: answerVehicle(outcome.facts),
  };
}
