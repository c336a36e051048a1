import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import {
  createRateLimiter,
  type LimitStore,
  type RateLimiter,
  type WindowLimiter,
} from "./rate-limiter.ts";

/**
 * rate-limiter-flexible's memory store, this process only: the embedded default, when no
 * RATE_LIMIT_URL is set. Its counters are updated synchronously, so concurrent requests can
 * never be over-admitted, and it always answers.
 */
export const memoryLimitStore: LimitStore = {
  window: (options) => new RateLimiterMemory(options),
  allOrNothingWindow(options) {
    const limiter = new RateLimiterMemory(options);
    return {
      points: limiter.points,
      consume: async (key, points = 1, more) => {
        try {
          return await limiter.consume(key, points, more);
        } catch (rejection) {
          if (!(rejection instanceof RateLimiterRes)) throw rejection;
          // The library counted the points it refused: give them back, and say what is left.
          throw await limiter.reward(key, points);
        }
      },
      penalty: (key, points, more) => limiter.penalty(key, points, more),
      reward: (key, points, more) => limiter.reward(key, points, more),
      get: (key, more) => limiter.get(key, more),
      delete: (key, more) => limiter.delete(key, more),
    } satisfies WindowLimiter;
  },
  ping: async () => {},
};

/** The plan and address limits in memory: a fixed window per account from its first request. */
export function createMemoryRateLimiter(): RateLimiter {
  return createRateLimiter(memoryLimitStore);
}
