// The latest reading of the person's own budget (the proxy's X-Own-* headers, in look-ups) seen
// on any response, for the meter in the shell header.
// Kept in the tab's sessionStorage too, so a reload shows the last reading (with when it was
// read) rather than nothing: docs/decisions/027-rate-limit-reading-kept-per-tab.md.
import { useSyncExternalStore } from "react";
import type { RateLimitState } from "@vics/shared";

// Not "vics:rate-limit", where readings in requests were kept: one budget, one unit.
export const RATE_LIMIT_KEY = "vics:own-checks";

export interface RateLimitReading extends RateLimitState {
  /** When the response arrived (ms since epoch), so the reset can count down from it. */
  receivedAt: number;
}

let latest: RateLimitReading | undefined;
let loaded = false;
const listeners = new Set<() => void>();

interface TabStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** The tab's sessionStorage; none outside a browser (the bench runs the fleet client in Node). */
const tabStorage = () =>
  (globalThis as { sessionStorage?: TabStorage }).sessionStorage;

const wholeNumber = (value: unknown): value is number =>
  typeof value === "number" && Number.isInteger(value) && value >= 0;

/**
 * The kept reading, or undefined when there is none or it is not one. Checked by hand, not
 * with zod: zod is kept out of the first page load (lazy-schemas.ts).
 */
function readKept(): RateLimitReading | undefined {
  try {
    const raw = tabStorage()?.getItem(RATE_LIMIT_KEY);
    if (raw === null || raw === undefined) return undefined;
    const { limit, remaining, resetSeconds, receivedAt } = JSON.parse(
      raw,
    ) as Record<string, unknown>;
    if (
      !wholeNumber(limit) ||
      !wholeNumber(remaining) ||
      !wholeNumber(resetSeconds) ||
      !wholeNumber(receivedAt)
    )
      return undefined;
    return { limit, remaining, resetSeconds, receivedAt };
  } catch {
    return undefined; // storage blocked, or not JSON: the meter waits for the next answer
  }
}

function keep(reading: RateLimitReading | undefined): void {
  try {
    if (reading) tabStorage()?.setItem(RATE_LIMIT_KEY, JSON.stringify(reading));
    else tabStorage()?.removeItem(RATE_LIMIT_KEY);
  } catch {
    // Storage blocked or full: the reading still lives for this page load.
  }
}

export function recordRateLimit(
  state: RateLimitState,
  receivedAt: number = Date.now(),
): void {
  const { limit, remaining, resetSeconds } = state;
  latest = { limit, remaining, resetSeconds, receivedAt };
  loaded = true;
  keep(latest);
  for (const listener of listeners) listener();
}

export function getRateLimit(): RateLimitReading | undefined {
  if (!loaded) {
    loaded = true;
    latest = readKept();
  }
  return latest;
}

export function subscribeRateLimit(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Forget every reading, kept ones too (tests, and nothing else, need this). */
export function resetRateLimit(): void {
  latest = undefined;
  loaded = true;
  keep(undefined);
  for (const listener of listeners) listener();
}

export function useRateLimit(): RateLimitReading | undefined {
  return useSyncExternalStore(subscribeRateLimit, getRateLimit, getRateLimit);
}
