// The latest X-RateLimit-* values seen on any response, for the meter in the shell header.
import { useSyncExternalStore } from "react";
import type { RateLimitState } from "@vics/shared";

export interface RateLimitReading extends RateLimitState {
  /** When the response arrived (ms since epoch), so the reset can count down from it. */
  receivedAt: number;
}

let latest: RateLimitReading | undefined;
const listeners = new Set<() => void>();

export function recordRateLimit(
  state: RateLimitState,
  receivedAt: number = Date.now(),
): void {
  latest = { ...state, receivedAt };
  for (const listener of listeners) listener();
}

export function getRateLimit(): RateLimitReading | undefined {
  return latest;
}

export function subscribeRateLimit(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Forget every reading (tests, and nothing else, need this). */
export function resetRateLimit(): void {
  latest = undefined;
  for (const listener of listeners) listener();
}

export function useRateLimit(): RateLimitReading | undefined {
  return useSyncExternalStore(subscribeRateLimit, getRateLimit, getRateLimit);
}
