// The policy a file's Insurer to Valid to columns show, for the fleet check's export and a saved
// fleet's alike: the cover in force, or for a vehicle not insured the last one that ended (the
// file's Outcome or Status says it is not in force); nothing when none ever was or the upstream
// did not say.

/** An insurance answer as far as its policies go: the check's and the re-checks' both fit. */
interface InsuranceWithPolicies<P> {
  status: string;
  policy?: P;
  lastPolicy?: P | null;
}

export function shownPolicy<P>(
  insurance: InsuranceWithPolicies<P> | undefined,
): P | undefined {
  if (insurance?.status === "insured") return insurance.policy;
  if (insurance?.status === "not-insured")
    return insurance.lastPolicy ?? undefined;
  return undefined;
}
