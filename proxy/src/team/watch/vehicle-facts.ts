// What a re-check learned about a watched vehicle, reduced to the facts its alerts and its
// timeline are made of. A re-check that could not answer has no facts: the vehicle is then
// "unknown since" that time, and nothing about it changes (never a stale green).
import { notYetOnRecord, type VehicleResult } from "@vics/fleet";
import type { PolicyFacts, VehicleFacts } from "@vics/shared";

export type { PolicyFacts, VehicleFacts } from "@vics/shared";

const policyFacts = (policy: PolicyFacts): PolicyFacts => ({
  number: policy.number,
  insurer: policy.insurer,
  validFrom: policy.validFrom,
  validTo: policy.validTo,
});

/**
 * The facts of a re-check's result on `today` (the UK date), or undefined when it was not
 * answered (the vehicle is unknown, not changed).
 */
export function vehicleFacts(
  result: VehicleResult,
  today: string,
): VehicleFacts | undefined {
  const { insurance, compliance } = result;
  if (insurance.status === "not-found" || compliance?.status === "not-found")
    return { found: false };
  if (insurance.status !== "insured" && insurance.status !== "not-insured")
    return undefined;
  if (compliance !== undefined && compliance.status !== "checked")
    return undefined;
  const facts: VehicleFacts = { found: true };
  if (insurance.status === "insured") {
    facts.insurance = {
      status: "insured",
      policy: policyFacts(insurance.policy),
    };
  } else if (notYetOnRecord(insurance, today)) {
    facts.insurance = {
      status: "pending",
      firstRegistered: insurance.vehicle?.firstRegistered ?? today,
    };
  } else {
    // Null: no policy was ever on the record. Absent: the upstream did not say which ended,
    // which is no claim of "never insured", so the facts leave it absent too.
    const { lastPolicy } = insurance;
    facts.insurance =
      lastPolicy === undefined
        ? { status: "not-insured" }
        : {
            status: "not-insured",
            lastPolicy: lastPolicy === null ? null : policyFacts(lastPolicy),
          };
  }
  const details = compliance?.details;
  if (details) {
    // Which register gave each, when one did: a fact from DVLA replaced by an import's (or the
    // other way) is a change the timeline shows, with both sources (decision 059).
    const sources = compliance?.factSources;
    facts.mot = {
      status: details.mot.status,
      expiry: details.mot.expiry,
      ...(sources?.mot && { source: sources.mot.source }),
    };
    facts.tax = {
      status: details.tax.status,
      dueDate: details.tax.dueDate,
      ...(sources?.tax && { source: sources.tax.source }),
    };
    facts.fines = {
      count: details.fines.count,
      totalPence: details.fines.totalPence,
    };
  }
  return facts;
}
