import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { PLAN_LIMITS, UNAUTHENTICATED_LIMIT } from "../plans.ts";
import { RATE_LIMIT_WINDOW_SECONDS } from "../rate-limit.ts";
import type {
  RateLimitDecision,
  RateLimiter,
  RateLimitTier,
} from "./rate-limiter.ts";

export const TIER_LIMITS: Record<RateLimitTier, number> = {
  ...PLAN_LIMITS,
  unauthenticated: UNAUTHENTICATED_LIMIT,
};

export function toDecision(
  limit: number,
  result: RateLimiterRes,
  allowed: boolean,
): RateLimitDecision {
  return {
    allowed,
    limit,
    remaining: Math.max(0, Math.min(limit, result.remainingPoints)),
    resetSeconds: Math.min(
      RATE_LIMIT_WINDOW_SECONDS,
      Math.max(0, Math.ceil(result.msBeforeNext / 1000)),
    ),
  };
}

/**
 * rate-limiter-flexible's memory store: a fixed window per account that starts at the
 * account's first request. Its counter is updated synchronously, so concurrent requests
 * can never be over-admitted.
 */
export function createMemoryRateLimiter(): RateLimiter {
  const limiters = new Map<RateLimitTier, RateLimiterMemory>();
  for (const [tier, points] of Object.entries(TIER_LIMITS))
    limiters.set(
      tier as RateLimitTier,
      new RateLimiterMemory({
        points,
        duration: RATE_LIMIT_WINDOW_SECONDS,
        keyPrefix: tier,
      }),
    );
  return {
    async consume(tier, account) {
      const limiter = limiters.get(tier);
      if (!limiter) throw new Error(`No rate limiter for tier ${tier}`);
      const limit = TIER_LIMITS[tier];
      try {
        return toDecision(limit, await limiter.consume(account), true);
      } catch (rejection) {
        // The library rejects with a RateLimiterRes when the limit is reached.
        if (rejection instanceof RateLimiterRes)
          return toDecision(limit, rejection, false);
        throw rejection;
      }
    },
  };
}
