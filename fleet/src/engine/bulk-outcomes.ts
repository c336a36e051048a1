// Turns a bulk answer into one outcome per registration sent, without trusting it blindly:
// the answer must hold exactly one item per registration, in the order sent, each consistent
// with itself. Anything else is a broken contract, and the whole chunk is asked again.
import {
  BULK_ERRORS,
  type BulkComplianceItem,
  type BulkComplianceResult,
  type BulkItem,
  type BulkResult,
  type DataAsOf,
} from "@vics/shared";
import type {
  ComplianceOutcome,
  InsuranceOutcome,
  RecordsAsOf,
} from "../results.ts";

/** The item said "Temporarily unavailable, retry later": ask again, like a 5xx. */
export const RETRY = "retry";

export type ItemVerdict<T> = T | typeof RETRY;

export type BulkVerdict<T> =
  { ok: true; outcomes: ItemVerdict<T>[] } | { ok: false; problem: string };

const BROKEN = Symbol("broken");

export function insuranceOutcomes(
  sent: readonly string[],
  answer: BulkResult,
): BulkVerdict<InsuranceOutcome> {
  return mapItems(sent, answer.results, insuranceOutcome);
}

/** A bulk compliance item's outcomes: insurance undefined when the item lacks the policy. */
export interface ComplianceItemOutcomes {
  compliance: ComplianceOutcome;
  insurance?: InsuranceOutcome;
}

export function complianceOutcomes(
  sent: readonly string[],
  answer: BulkComplianceResult,
): BulkVerdict<ComplianceItemOutcomes> {
  const recordsAsOf = recordsAsOfFrom(answer.dataAsOf);
  return mapItems(sent, answer.results, (item) =>
    complianceItemOutcomes(item, recordsAsOf),
  );
}

/**
 * The answer's dates for road tax and MOT, for the rows whose facts came from VICS's records;
 * undefined when it gives neither (an older service). One object for the whole answer, with
 * only those two: an outcome keeps what its tax and MOT sources read, not the answer's
 * insurance and fines dates, which a saved run would otherwise store too.
 */
export function recordsAsOfFrom(
  dataAsOf: DataAsOf | undefined,
): RecordsAsOf | undefined {
  if (dataAsOf?.tax === undefined && dataAsOf?.mot === undefined)
    return undefined;
  return {
    ...(dataAsOf.tax !== undefined ? { tax: dataAsOf.tax } : {}),
    ...(dataAsOf.mot !== undefined ? { mot: dataAsOf.mot } : {}),
  };
}

function mapItems<Item extends { registration: string }, T>(
  sent: readonly string[],
  items: readonly Item[],
  outcome: (item: Item) => ItemVerdict<T> | typeof BROKEN,
): BulkVerdict<T> {
  if (items.length !== sent.length) {
    return {
      ok: false,
      problem: `${items.length} results for ${sent.length} registrations`,
    };
  }
  const outcomes: ItemVerdict<T>[] = [];
  for (const [index, item] of items.entries()) {
    if (item.registration !== sent[index]) {
      return {
        ok: false,
        problem: `result ${index + 1} is for ${item.registration}, not ${sent[index]}`,
      };
    }
    const verdict = outcome(item);
    if (verdict === BROKEN) {
      return { ok: false, problem: `result ${index + 1} contradicts itself` };
    }
    outcomes.push(verdict);
  }
  return { ok: true, outcomes };
}

/** A failed item's error, in the outcome both checks share; RETRY for "temporarily unavailable". */
export function failedItemOutcome(
  error: string,
): ItemVerdict<
  | { status: "not-found" }
  | { status: "invalid" }
  | { status: "not-checked"; reason: string }
> {
  switch (error) {
    case BULK_ERRORS.notFound:
      return { status: "not-found" };
    case BULK_ERRORS.invalid:
      return { status: "invalid" };
    case BULK_ERRORS.unavailable:
      return RETRY;
    default:
      return { status: "not-checked", reason: error };
  }
}

function insuranceOutcome(
  item: BulkItem,
): ItemVerdict<InsuranceOutcome> | typeof BROKEN {
  const vehicle = item.vehicle ? { vehicle: item.vehicle } : {};
  if (item.error !== undefined) {
    return item.insured ? BROKEN : failedItemOutcome(item.error);
  }
  if (!item.insured) {
    const lastPolicy =
      item.lastPolicy !== undefined ? { lastPolicy: item.lastPolicy } : {};
    return { status: "not-insured", ...lastPolicy, ...vehicle };
  }
  // An insured item without the policy that insures it breaks the contract.
  if (!item.policy) return BROKEN;
  return { status: "insured", policy: item.policy, ...vehicle };
}

function complianceItemOutcomes(
  item: BulkComplianceItem,
  recordsAsOf: RecordsAsOf | undefined,
): ItemVerdict<ComplianceItemOutcomes> | typeof BROKEN {
  if (item.error !== undefined) {
    if (item.compliant) return BROKEN;
    // A vehicle not found (or invalid) is so for both parts.
    const failed = failedItemOutcome(item.error);
    return failed === RETRY ? RETRY : { compliance: failed, insurance: failed };
  }
  const compliance = checkedOutcome(item, recordsAsOf);
  const insurance = insuranceFromCompliance(item);
  if (!compliance || insurance === BROKEN) return BROKEN;
  return insurance ? { compliance, insurance } : { compliance };
}

/**
 * The insurance outcome a successful bulk compliance item carries (decision 021): its policy
 * when insuranceValid, its last policy (or null) when not; undefined when it lacks them.
 */
function insuranceFromCompliance(
  item: BulkComplianceItem,
): InsuranceOutcome | undefined | typeof BROKEN {
  const vehicle = item.vehicle ? { vehicle: item.vehicle } : {};
  const { policy, lastPolicy } = item;
  if (item.checks.insuranceValid) {
    if (lastPolicy !== undefined) return BROKEN;
    return policy && { status: "insured", policy, ...vehicle };
  }
  if (policy) return BROKEN;
  return lastPolicy === undefined
    ? undefined
    : { status: "not-insured", lastPolicy, ...vehicle };
}

/**
 * A compliance answer as an outcome, with where its tax and MOT facts came from;
 * undefined when `compliant` disagrees with the checks.
 */
export function checkedOutcome(
  answer: Pick<
    BulkComplianceItem,
    "compliant" | "checks" | "details" | "vehicle" | "factSources"
  >,
  recordsAsOf: RecordsAsOf | undefined,
): ComplianceOutcome | undefined {
  const allPass = Object.values(answer.checks).every(Boolean);
  if (answer.compliant !== allPass) return undefined;
  return {
    status: "checked",
    compliant: answer.compliant,
    checks: answer.checks,
    ...(answer.details ? { details: answer.details } : {}),
    ...(answer.vehicle ? { vehicle: answer.vehicle } : {}),
    ...(answer.factSources ? { factSources: answer.factSources } : {}),
    ...(recordsAsOf ? { recordsAsOf } : {}),
  };
}
