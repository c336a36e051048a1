import type { Policy } from "@vics/shared";
import type { IsoDate } from "@vics/shared";

export interface InsuranceStatus {
  insured: boolean;
  /** The current policy when insured, else the most recent lapsed one, else null. */
  policy: Policy | null;
}

export function coversDate(policy: Policy, today: IsoDate): boolean {
  return policy.validFrom <= today && today <= policy.validTo;
}

function latestEnding(policies: readonly Policy[]): Policy | null {
  let latest: Policy | null = null;
  for (const policy of policies) {
    if (latest === null || policy.validTo > latest.validTo) latest = policy;
  }
  return latest;
}

export function insuranceStatus(
  policies: readonly Policy[],
  today: IsoDate,
): InsuranceStatus {
  const current = latestEnding(policies.filter((p) => coversDate(p, today)));
  if (current) return { insured: true, policy: current };
  // A policy that has not started yet is not "lapsed", so it is never shown here.
  const lapsed = latestEnding(policies.filter((p) => p.validTo < today));
  return { insured: false, policy: lapsed };
}
