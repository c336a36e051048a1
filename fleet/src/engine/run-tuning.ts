// The knobs of a fleet run, with the defaults the page uses. Tests and the Node benchmark pass
// their own clock, sleep and randomness so that waits of minutes take no time at all.
import { BULK_MAX_REGISTRATIONS } from "@vics/shared";
import { sleep } from "./backoff.ts";

export interface RunTuning {
  /** Registrations per bulk request: at most the contract's 1,000, whatever is asked. */
  chunkSize: number;
  /** Requests in flight at once (and answers being saved). */
  concurrency: number;
  /** Tries of one request (or one lone registration meeting 429) before its rows end "not checked". */
  maxAttempts: number;
  /** Backoff before the n-th retry: random in [0, min(maxDelayMs, baseDelayMs * 2^(n-1))). */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A request not answered by then is aborted and retried. Real time (setTimeout), always. */
  requestTimeoutMs: number;
  /** After "stop", how long the answers to requests in flight are waited for. Real time, always. */
  stopGraceMs: number;
  /** At most one progress report per this many ms while counts change (phase changes go at once). */
  progressIntervalMs: number;
  random: () => number;
  /** Milliseconds since the epoch. */
  now: () => number;
  /** Resolves after `ms`, or early (never rejecting) when `signal` aborts. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export const DEFAULT_TUNING: RunTuning = {
  chunkSize: BULK_MAX_REGISTRATIONS,
  concurrency: 3,
  maxAttempts: 4,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  requestTimeoutMs: 30_000,
  stopGraceMs: 5_000,
  progressIntervalMs: 100,
  random: Math.random,
  now: Date.now,
  sleep,
};

export function resolveTuning(tuning: Partial<RunTuning> = {}): RunTuning {
  const merged = { ...DEFAULT_TUNING, ...tuning };
  return {
    ...merged,
    chunkSize: clamp(merged.chunkSize, 1, BULK_MAX_REGISTRATIONS),
    concurrency: Math.max(1, Math.floor(merged.concurrency)),
    maxAttempts: Math.max(1, Math.floor(merged.maxAttempts)),
  };
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, Math.floor(value)));
}
