import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import {
  createRateLimiter,
  type LimitStore,
  type RateLimiter,
  type WindowCount,
  type WindowLimiter,
  type WindowOptions,
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
      set: (key, points, seconds) => limiter.set(key, points, seconds),
      delete: (key, more) => limiter.delete(key, more),
    } satisfies WindowLimiter;
  },
  countingWindow: countingWindow,
  ping: async () => {},
};

/**
 * rate-limiter-flexible's memory window (RateLimiterMemory, MemoryStorage) for one point at a
 * time, in a plain Map: a key's window starts at its first consume and lasts `duration`
 * seconds, every consume in it counts, and a key is forgotten when its window ends. The
 * library made a RateLimiterRes and a promise per request, and rejected one for a refusal.
 */
function countingWindow(options: WindowOptions): (key: string) => WindowCount {
  const durationMs = options.duration * 1000;
  const windows = new Map<string, { consumed: number; endsAt: number }>();
  return (key) => {
    const now = Date.now();
    const open = windows.get(key);
    if (open && open.endsAt - now > 0) {
      open.consumed += 1;
      return { consumed: open.consumed, msBeforeNext: open.endsAt - now };
    }
    const started = { consumed: 1, endsAt: now + durationMs };
    windows.set(key, started);
    setTimeout(() => {
      if (windows.get(key) === started) windows.delete(key);
    }, durationMs).unref();
    return { consumed: 1, msBeforeNext: durationMs };
  };
}

/** The plan and address limits in memory: a fixed window per account from its first request. */
export function createMemoryRateLimiter(): RateLimiter {
  return createRateLimiter(memoryLimitStore);
}
