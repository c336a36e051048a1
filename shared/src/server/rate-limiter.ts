import type { Plan } from "../plans.ts";

/** Who a request counts against: a key's plan, or a client address without a valid key. */
export type RateLimitTier = Plan | "unauthenticated";

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** Never negative. */
  remaining: number;
  /** Whole seconds until the window resets, 0-60. */
  resetSeconds: number;
}

/** Small on purpose: a Redis-backed implementation will sit beside the memory one. */
export interface RateLimiter {
  /** Counts one request for `account` in `tier`, allowed or not. */
  consume(tier: RateLimitTier, account: string): Promise<RateLimitDecision>;
}
