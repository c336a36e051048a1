// A vehicle first registered in the last 14 days, with no policy ever on record, may be insured
// already: insurers have up to 14 days (fleet) to put a policy on the record. The single check
// and the fleet results say "not yet on record" for it, not "not insured": a fleet manager
// would otherwise chase a false alarm.
import {
  addDays,
  daysBetween,
  POLICY_RECORD_GRACE_DAYS,
  type Policy,
  type Vehicle,
} from "@vics/shared";

interface NotInsuredAnswer {
  /** The most recent policy that ended: null when there never was one; undefined if unknown. */
  lastPolicy?: Policy | null;
  vehicle?: Vehicle;
}

/** `day`: the UK date the answer is about ("YYYY-MM-DD"). */
export function notYetOnRecord(answer: NotInsuredAnswer, day: string): boolean {
  const firstRegistered = answer.vehicle?.firstRegistered;
  if (answer.lastPolicy !== null || firstRegistered === undefined) return false;
  const age = daysBetween(firstRegistered, day);
  return age >= 0 && age <= POLICY_RECORD_GRACE_DAYS;
}

/** The last day an insurer may still put the vehicle's first policy on the record. */
export function recordDeadline(firstRegistered: string): string {
  return addDays(firstRegistered, POLICY_RECORD_GRACE_DAYS);
}
