// What the rate-limit meter says, in words a member of staff understands, from the latest
// X-RateLimit-* reading and the time now. Pure, so every wording is tested as a table.
import type { RateLimitReading } from "../lib/rate-limit-store.ts";

// At or below this share of the limit the meter says "Only ...", not only in colour.
const LOW_SHARE = 0.1;

export type MeterState =
  | { kind: "unknown" }
  | { kind: "open"; remaining: number; limit: number; resetIn: number }
  | { kind: "low"; remaining: number; limit: number; resetIn: number }
  | { kind: "used-up"; limit: number; resetIn: number }
  | { kind: "renewed"; limit: number };

export function meterState(
  reading: RateLimitReading | undefined,
  nowMs: number,
): MeterState {
  if (!reading) return { kind: "unknown" };
  const { limit, remaining } = reading;
  const elapsed = Math.max(0, Math.floor((nowMs - reading.receivedAt) / 1000));
  const resetIn = Math.max(0, reading.resetSeconds - elapsed);
  // Once the window has passed, the last reading no longer holds: a new minute has begun.
  if (resetIn === 0) return { kind: "renewed", limit };
  if (remaining === 0) return { kind: "used-up", limit, resetIn };
  if (remaining <= Math.floor(limit * LOW_SHARE))
    return { kind: "low", remaining, limit, resetIn };
  return { kind: "open", remaining, limit, resetIn };
}

const count = (value: number) => value.toLocaleString("en-GB");
// The limit counts requests, not vehicles: one fleet request carries up to 1,000 vehicles.
const requests = (value: number) =>
  `${count(value)} ${value === 1 ? "request" : "requests"}`;
const seconds = (value: number) =>
  `${value} ${value === 1 ? "second" : "seconds"}`;

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
      return "Requests left this minute: shown after your first check";
    case "open":
      return `Requests left this minute: ${count(state.remaining)} of ${count(state.limit)}`;
    case "low":
      return `Only ${count(state.remaining)} of ${requests(state.limit)} left this minute`;
    case "used-up":
      return "No requests left this minute";
    case "renewed":
      // Every member of staff shares the app's allowance, so some may already be used.
      return `Up to ${requests(state.limit)} left this minute`;
  }
}

/** The line under it: when more checks come, only when that matters. */
export function meterDetail(state: MeterState): string {
  switch (state.kind) {
    case "low":
      return `Back to ${count(state.limit)} in ${seconds(state.resetIn)}`;
    case "used-up":
      return `You can check again in ${seconds(state.resetIn)}`;
    default:
      return "";
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
    return `No requests left this minute. You can check again in ${seconds(state.resetIn)}.`;
  if (!usedUp && wasUsedUp) return "Requests are available again.";
  return undefined;
}
