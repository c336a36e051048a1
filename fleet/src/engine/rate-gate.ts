// Decides whether the run may send a request now, from the X-RateLimit-* readings and 429s it
// has seen, so that it never sends what it knows will be refused (docs/decisions/012).
//
// - The latest reading by arrival is the budget's basis. Budget = Remaining minus the requests
//   sent since that reading, where the requests still in flight when it arrived count as sent:
//   the service may not have counted them yet, and guessing high only costs a little speed.
// - No budget: wait for the reading's reset (its arrival + Reset seconds). Past the reset, the
//   window is new: Limit minus the requests in flight (each answer brings a fresh reading).
// - No reading yet (the first requests, or just after a 429): up to `concurrency` go out.
// - A 429 closes the gate for Retry-After (the client falls back to Reset, then 60 s), and
//   forgets the budget: Retry-After is the service's word on when to come back.
// - A later answer that is not a 429 and shows Remaining > 0 contradicts that 429 (the sandbox's
//   ER19THR, or a 429 about one poisoned list), so it lifts the wait at once.
import type { RateLimitState } from "@vics/shared";

export interface RateReading extends RateLimitState {
  /** When the response arrived (ms since the epoch). */
  receivedAt: number;
}

export type GateDecision =
  | { open: true }
  /** `until`: when to look again; undefined when only an answer can open it. */
  | { open: false; until?: number };

export class RateGate {
  private reading: RateReading | undefined;
  private sentSinceReading = 0;
  private inFlight = 0;
  private blockedUntil: number | undefined;

  check(now: number): GateDecision {
    if (this.blockedUntil !== undefined) {
      if (now < this.blockedUntil)
        return { open: false, until: this.blockedUntil };
      this.blockedUntil = undefined;
    }
    const reading = this.reading;
    if (!reading) return { open: true };
    const resetAt = resetTime(reading);
    if (now < resetAt) {
      return reading.remaining - this.sentSinceReading > 0
        ? { open: true }
        : { open: false, until: resetAt };
    }
    // Waiting for an answer cannot hang: with Limit requests in flight, one will end.
    return reading.limit - this.inFlight > 0 ? { open: true } : { open: false };
  }

  /** Closed for a 429's Retry-After: the window is known to be spent. */
  isWaiting(now: number): boolean {
    return this.blockedUntil !== undefined && now < this.blockedUntil;
  }

  /** A request leaves now. */
  sent(): void {
    this.inFlight += 1;
    this.sentSinceReading += 1;
  }

  /**
   * A request ended: answered (with its reading, if any), failed or aborted.
   * `retryAfterMs` is given for a 429 only.
   */
  settled(now: number, reading?: RateReading, retryAfterMs?: number): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (retryAfterMs !== undefined) {
      this.blockedUntil = Math.max(this.blockedUntil ?? 0, now + retryAfterMs);
      this.reading = undefined;
      this.sentSinceReading = this.inFlight;
      return;
    }
    if (!reading) return;
    this.reading = reading;
    this.sentSinceReading = this.inFlight;
    if (reading.remaining > 0) this.blockedUntil = undefined;
  }
}

function resetTime(reading: RateReading): number {
  return reading.receivedAt + reading.resetSeconds * 1000;
}
