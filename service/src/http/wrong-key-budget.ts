import { RATE_LIMIT_WINDOW_SECONDS } from "@vics/shared";
import { memoryLimitStore } from "@vics/server-kit/memory-rate-limiter";
import {
  decide,
  toDecision,
  type LimitStore,
  type RateLimitDecision,
} from "@vics/server-kit/rate-limiter";

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

/**
 * One account for everyone, in `store`: memory (this process), or Redis so that every replica
 * spends the same budget.
 */
export function createWrongKeyBudget(
  limit = WRONG_KEYS_PER_WINDOW,
  store: LimitStore = memoryLimitStore,
): WrongKeyBudget {
  const window = store.window({
    points: limit,
    duration: RATE_LIMIT_WINDOW_SECONDS,
    keyPrefix: "wrong-keys",
  });
  return {
    async consume() {
      const { result, allowed } = await decide(window, "every address");
      return toDecision(limit, result, allowed);
    },
  };
}
