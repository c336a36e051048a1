// The minimal service's rate limit: a count per key in a fixed window of a minute from the
// key's first request, as the service's memory limiter counts (rate-limiter-flexible), in a Map.
import { RATE_LIMIT_WINDOW_SECONDS } from "@vics/shared";
import type { RateLimitDecision } from "@vics/shared/server/rate-limiter";

const WINDOW_MS = RATE_LIMIT_WINDOW_SECONDS * 1000;

export function fixedWindows(now: () => number = Date.now) {
  const windows = new Map<string, { start: number; count: number }>();
  return (account: string, limit: number): RateLimitDecision => {
    const at = now();
    let window = windows.get(account);
    if (window === undefined || at - window.start >= WINDOW_MS) {
      window = { start: at, count: 0 };
      windows.set(account, window);
    }
    window.count++;
    return {
      allowed: window.count <= limit,
      limit,
      remaining: Math.max(0, limit - window.count),
      resetSeconds: Math.ceil((window.start + WINDOW_MS - at) / 1000),
    };
  };
}
