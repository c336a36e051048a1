import {
  RateLimiterRes,
  type RateLimiterAbstract,
} from "rate-limiter-flexible";
import {
  PLAN_LIMITS,
  RATE_LIMIT_WINDOW_SECONDS,
  UNAUTHENTICATED_LIMIT,
  type Plan,
} from "@vics/shared";

/** Who a request counts against: a key's plan, or a client address without a valid key. */
export type RateLimitTier = Plan | "unauthenticated";

export const TIER_LIMITS: Record<RateLimitTier, number> = {
  ...PLAN_LIMITS,
  unauthenticated: UNAUTHENTICATED_LIMIT,
};

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** Never negative. */
  remaining: number;
  /** Whole seconds until the window resets, 0-60. */
  resetSeconds: number;
}

/** Small on purpose: the same for the memory and the Redis limits. */
export interface RateLimiter {
  /** Counts one request for `account` in `tier`, allowed or not. */
  consume(tier: RateLimitTier, account: string): Promise<RateLimitDecision>;
  /**
   * Resolves when the limits can be counted; throws DependencyUnavailableError when Redis does
   * not answer. For a readiness check: memory always answers.
   */
  ping(): Promise<void>;
}

/** One fixed window: `points` per `duration` seconds for each key, keys under `keyPrefix`. */
export interface WindowOptions {
  points: number;
  duration: number;
  keyPrefix: string;
}

/**
 * The calls VICS makes on a rate-limiter-flexible limiter. A refused consume rejects with a
 * RateLimiterRes, as the library does; on Redis, any other failure rejects with
 * DependencyUnavailableError. `set` writes a key's points outright, for a value that is not a
 * count (a source's pause, service/src/sources/pacer.ts).
 */
export type WindowLimiter = Pick<
  RateLimiterAbstract,
  "points" | "consume" | "penalty" | "reward" | "get" | "set" | "delete"
>;

/**
 * Where limits are counted: this process's memory (one replica, the embedded default), or
 * Redis shared by every replica (RATE_LIMIT_URL), so a limit stays exact however many run.
 */
export interface LimitStore {
  /** A window in which every consume counts, refused or not. */
  window(options: WindowOptions): WindowLimiter;
  /**
   * A window in which a consume that does not fit counts nothing, so a big request that is
   * refused leaves room for smaller ones; its RateLimiterRes says what is left.
   */
  allOrNothingWindow(options: WindowOptions): WindowLimiter;
  /**
   * A window in which every consume of one point counts, refused or not, as `window` counts
   * it, but counted synchronously and without a RateLimiterRes: for the plan and address
   * limits, on every request. Only a store in this process's memory has it.
   */
  countingWindow?(options: WindowOptions): (key: string) => WindowCount;
  /** As RateLimiter.ping. */
  ping(): Promise<void>;
}

/** A key's points consumed in its window so far, and the milliseconds until it ends. */
export interface WindowCount {
  consumed: number;
  msBeforeNext: number;
}

export function toDecision(
  limit: number,
  result: Pick<RateLimiterRes, "remainingPoints" | "msBeforeNext">,
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

/** A counting window's count as the library decides: refused past the limit, the refused point counted. */
export function countedDecision(
  limit: number,
  { consumed, msBeforeNext }: WindowCount,
): RateLimitDecision {
  return toDecision(
    limit,
    { remainingPoints: Math.max(limit - consumed, 0), msBeforeNext },
    consumed <= limit,
  );
}

/** Consumes `points` and says whether they fitted: the library rejects a refusal. */
export async function decide(
  limiter: WindowLimiter,
  key: string,
  points = 1,
): Promise<{ result: RateLimiterRes; allowed: boolean }> {
  try {
    return { result: await limiter.consume(key, points), allowed: true };
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes)
      return { result: rejection, allowed: false };
    throw rejection;
  }
}

/** The plan and address limits over `store`: a fixed window per account, from its first request. */
export function createRateLimiter(store: LimitStore): RateLimiter {
  const limiters = new Map<RateLimitTier, WindowLimiter>();
  const counters = new Map<RateLimitTier, (key: string) => WindowCount>();
  for (const [tier, points] of Object.entries(TIER_LIMITS)) {
    const options = {
      points,
      duration: RATE_LIMIT_WINDOW_SECONDS,
      keyPrefix: tier,
    };
    if (store.countingWindow)
      counters.set(tier as RateLimitTier, store.countingWindow(options));
    else limiters.set(tier as RateLimitTier, store.window(options));
  }
  return {
    async consume(tier, account) {
      const count = counters.get(tier);
      if (count) return countedDecision(TIER_LIMITS[tier], count(account));
      const limiter = limiters.get(tier);
      if (!limiter) throw new Error(`No rate limiter for tier ${tier}`);
      const { result, allowed } = await decide(limiter, account);
      return toDecision(TIER_LIMITS[tier], result, allowed);
    },
    ping: () => store.ping(),
  };
}
