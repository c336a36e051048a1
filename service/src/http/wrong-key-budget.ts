import { RATE_LIMIT_WINDOW_SECONDS } from "@vics/shared";
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { toDecision } from "@vics/shared/server/memory-rate-limiter";
import type { RateLimitDecision } from "@vics/shared/server/rate-limiter";

/**
 * Wrong keys (an X-API-Key that is not a valid key) per 60-second window from all addresses
 * together, on top of the 30 per address (decision 031). The service's callers are the proxy
 * and a few programs, each with a valid key: a hundred wrong keys a minute is a guesser.
 */
export const WRONG_KEYS_PER_WINDOW = 100;

/** One window shared by every address; small on purpose, like RateLimiter. */
export interface WrongKeyBudget {
  /** Counts one wrong key, allowed or not. */
  consume(): Promise<RateLimitDecision>;
}

/** rate-limiter-flexible's memory store, one account for everyone. */
export function createWrongKeyBudget(
  limit = WRONG_KEYS_PER_WINDOW,
): WrongKeyBudget {
  const limiter = new RateLimiterMemory({
    points: limit,
    duration: RATE_LIMIT_WINDOW_SECONDS,
    keyPrefix: "wrong-keys",
  });
  return {
    async consume() {
      try {
        return toDecision(limit, await limiter.consume("every address"), true);
      } catch (rejection) {
        // The library rejects with a RateLimiterRes when the budget is spent.
        if (rejection instanceof RateLimiterRes)
          return toDecision(limit, rejection, false);
        throw rejection;
      }
    },
  };
}
