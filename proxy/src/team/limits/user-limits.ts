import type { Role } from "@vics/shared";
import {
  decide,
  toDecision,
  type LimitStore,
  type RateLimitDecision,
} from "@vics/server-kit/rate-limiter";
import { memoryLimitStore } from "@vics/server-kit/memory-rate-limiter";
import { RATE_LIMIT_WINDOW_SECONDS } from "@vics/shared";

/**
 * Look-ups a person may ask for in one 60-second window, by role: a single check is one, a
 * bulk check one per registration. On top of the key's plan, so one person cannot spend the
 * whole team's quota (docs/decisions/034-per-user-limits.md).
 */
export type UserLimits = Record<Role, number>;

/**
 * A person at a desk checks a vehicle every few seconds at most; a fleet of 100,000 takes
 * about two minutes at the fleet role's pace, and no one can ask for 1.4 million in ten seconds.
 */
export const DEFAULT_USER_LIMITS: UserLimits = {
  staff: 120,
  fleet: 50_000,
  admin: 50_000,
};

/** What the user limiter says about one request of `cost` look-ups. */
export interface UserLimitDecision extends RateLimitDecision {
  /** The user's limit in look-ups. */
  lookups: number;
  /** Look-ups left in the window, after this request when it was allowed. */
  lookupsLeft: number;
}

export interface UserLimiter {
  readonly limits: UserLimits;
  /**
   * Counts `cost` look-ups for `userId` when they fit in what is left; a refused request
   * counts nothing, so a big bulk request that does not fit leaves room for smaller ones.
   */
  consume(role: Role, userId: string, cost: number): Promise<UserLimitDecision>;
}

/**
 * One fixed window per user in `store`: memory (this process), or Redis so that every replica
 * counts the same look-ups. A refused request counts nothing, atomically on Redis too
 * (LimitStore.allOrNothingWindow).
 */
export function createUserLimiter(
  limits: UserLimits,
  store: LimitStore,
): UserLimiter {
  const limiters = new Map(
    Object.entries(limits).map(([role, points]) => [
      role as Role,
      store.allOrNothingWindow({
        points,
        duration: RATE_LIMIT_WINDOW_SECONDS,
        keyPrefix: `user-${role}`,
      }),
    ]),
  );
  return {
    limits,
    async consume(role, userId, cost) {
      const lookups = limits[role];
      const { result, allowed } = await decide(
        limiters.get(role)!,
        userId,
        cost,
      );
      return {
        ...toDecision(lookups, result, allowed),
        lookups,
        lookupsLeft: Math.max(0, result.remainingPoints),
      };
    },
  };
}

/** In this process's memory: the embedded default, and the tests'. */
export function createMemoryUserLimiter(
  limits: UserLimits = DEFAULT_USER_LIMITS,
): UserLimiter {
  return createUserLimiter(limits, memoryLimitStore);
}
