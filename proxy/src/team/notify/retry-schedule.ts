// When a delivery that could not be sent is tried again: sooner first, then further apart, for
// about a day; after the last, it has failed (the admin sees it, and can replay it).
import type { AttemptOutcome } from "../store/delivery-store.ts";

const MINUTE = 60_000;

/** The wait after the 1st, 2nd... failed attempt. */
export const RETRY_DELAYS_MS = [1, 5, 15, 60, 3 * 60, 6 * 60, 12 * 60].map(
  (minutes) => minutes * MINUTE,
);

/** Attempts before a delivery has failed: the first and one per delay. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** Where a delivery stands after its `attempt`-th attempt (1 for the first) failed. */
export function afterFailure(
  attempt: number,
  now: number,
  error: string,
): Extract<AttemptOutcome, { status: "pending" | "failed" }> {
  const delay = RETRY_DELAYS_MS[attempt - 1];
  if (delay === undefined)
    return {
      status: "failed",
      note: `Gave up after ${attempt} attempts: ${error}`,
    };
  return { status: "pending", nextAttemptAt: now + delay, note: error };
}
