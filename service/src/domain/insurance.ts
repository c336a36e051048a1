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

/**
 * One pass, no arrays: a bulk check judges a thousand vehicles. Of equal end dates the first
 * listed wins.
 */
export function insuranceStatus(
  policies: readonly Policy[],
  today: IsoDate,
): InsuranceStatus {
  let current: Policy | null = null;
  let lapsed: Policy | null = null;
  for (const policy of policies) {
    if (coversDate(policy, today)) {
      if (current === null || policy.validTo > current.validTo)
        current = policy;
    } else if (
      // A policy that has not started yet is not "lapsed", so it is never shown here.
      policy.validTo < today &&
      (lapsed === null || policy.validTo > lapsed.validTo)
    )
      lapsed = policy;
  }
  if (current) return { insured: true, policy: current };
  return { insured: false, policy: lapsed };
}
