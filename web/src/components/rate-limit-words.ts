// What the rate-limit meter says, in words a member of staff understands, from the latest
// reading of the person's own budget (the proxy's X-Own-*: look-ups, one per vehicle checked)
// and the time now. Pure, so every wording is tested as a table.
import { UK_TIME_ZONE } from "@vics/shared";
import type { RateLimitReading } from "../lib/rate-limit-store.ts";
import { count } from "../lib/count.ts";

// At or below this share of the limit the meter says "Only ...", not only in colour.
const LOW_SHARE = 0.1;

/** `readAt`: when the reading arrived (ms since epoch); after a reload it may be a while ago. */
export type MeterState =
  | { kind: "unknown" }
  | {
      kind: "open";
      remaining: number;
      limit: number;
      resetIn: number;
      readAt: number;
    }
  | {
      kind: "low";
      remaining: number;
      limit: number;
      resetIn: number;
      readAt: number;
    }
  | { kind: "used-up"; limit: number; resetIn: number; readAt: number }
  | { kind: "renewed"; limit: number; readAt: number };

export function meterState(
  reading: RateLimitReading | undefined,
  nowMs: number,
): MeterState {
  if (!reading) return { kind: "unknown" };
  const { limit, remaining, receivedAt: readAt } = reading;
  const elapsed = Math.max(0, Math.floor((nowMs - reading.receivedAt) / 1000));
  const resetIn = Math.max(0, reading.resetSeconds - elapsed);
  // Once the window has passed, the last reading no longer holds: a new minute has begun.
  if (resetIn === 0) return { kind: "renewed", limit, readAt };
  if (remaining === 0) return { kind: "used-up", limit, resetIn, readAt };
  if (remaining <= Math.floor(limit * LOW_SHARE))
    return { kind: "low", remaining, limit, resetIn, readAt };
  return { kind: "open", remaining, limit, resetIn, readAt };
}

// The person's own limit counts checks, one per vehicle, however many a request carries: a
// fleet run of 1,973 vehicles uses 1,973 of them, whatever its chunks.
const checks = (value: number) =>
  `${count(value)} ${value === 1 ? "check" : "checks"}`;
const seconds = (value: number) =>
  `${value} ${value === 1 ? "second" : "seconds"}`;
// Staff work in the UK, so the time of a reading is UK time whatever the machine says.
const clock = new Intl.DateTimeFormat("en-GB", {
  hour: "2-digit",
  minute: "2-digit",
  timeZone: UK_TIME_ZONE,
});
const readAtTime = (readAt: number) => clock.format(new Date(readAt));

/** The bar's value: what is left, or the whole allowance once a new minute has begun. */
export function meterValue(state: Exclude<MeterState, { kind: "unknown" }>) {
  if (state.kind === "used-up") return 0;
  if (state.kind === "renewed") return state.limit;
  return state.remaining;
}

/** The bar turns to its warning colour above this many checks, as the words turn to "Only". */
export function meterLowBound(limit: number): number {
  return Math.floor(limit * LOW_SHARE) + 1;
}

/** The meter's main line. */
export function meterHeadline(state: MeterState): string {
  switch (state.kind) {
    case "unknown":
      return "Your checks left this minute: not read yet";
    case "open":
      return `Your checks left this minute: ${count(state.remaining)} of ${count(state.limit)}`;
    case "low":
      return `Only ${count(state.remaining)} of your ${checks(state.limit)} left this minute`;
    case "used-up":
      return "You have no checks left this minute";
    case "renewed":
      // The person's other tabs may already have used some.
      return `Up to ${count(state.limit)} of your checks left this minute`;
  }
}

/**
 * The line under it: when the reading was taken and when the allowance renews. The count is a
 * reading, not a live figure (the person's other tabs use it too, and after a reload it may be
 * from a while ago), so its time is said; once its minute has passed, only that it renewed.
 */
export function meterDetail(state: MeterState): string {
  switch (state.kind) {
    case "open":
      return `As of ${readAtTime(state.readAt)}; renews in ${seconds(state.resetIn)}`;
    case "renewed":
      return `Read at ${readAtTime(state.readAt)}; renewed since`;
    case "low":
      return `Back to ${count(state.limit)} in ${seconds(state.resetIn)}`;
    case "used-up":
      return `You can check again in ${seconds(state.resetIn)}`;
    // On its own line, so a phone's header keeps one line of words above it, read or not.
    case "unknown":
      return "Shown after your first check";
  }
}

/**
 * What a screen reader hears, only when checks run out or come back: not after every check.
 * `wasUsedUp` is whether the previous state was "used-up".
 */
export function meterAnnouncement(
  state: MeterState,
  wasUsedUp: boolean,
): string | undefined {
  const usedUp = state.kind === "used-up";
  if (usedUp && !wasUsedUp)
    return `You have no checks left this minute. You can check again in ${seconds(state.resetIn)}.`;
  if (!usedUp && wasUsedUp) return "Your checks are available again.";
  return undefined;
}
