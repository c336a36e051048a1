/**
 * `@vics/server-kit/redis-rate-limiter`: the limits counted in Redis, shared by every
 * replica (RATE_LIMIT_URL), failing closed: when Redis does not answer, a limiter call throws
 * DependencyUnavailableError (a 503 with Retry-After), never an unlimited request and never a
 * hang (docs/decisions/036-fail-closed-without-redis.md).
 */
import { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { DependencyUnavailableError } from "./dependency-unavailable.ts";
import type {
  LimitStore,
  WindowLimiter,
  WindowOptions,
} from "./rate-limiter.ts";
import { REDIS_DEADLINE_MS, type RedisClient } from "./redis-client.ts";

/** Before every key VICS keeps in Redis, so a Redis shared with other software keeps them apart. */
const KEY_NAMESPACE = "vics:";

/**
 * rate-limiter-flexible's own script (start the window if there is none, add the points, read
 * the time left), except that points which would go over the limit are not added. It returns
 * the count as it would have been, so the library refuses as usual. In one script, so no
 * replica ever sees a count that a refused request inflated for a moment, as a consume
 * followed by a reward would show it. KEYS[1]: the window; ARGV: points, window seconds, limit.
 */
const ALL_OR_NOTHING_SCRIPT = `redis.call('set', KEYS[1], 0, 'EX', ARGV[2], 'NX')
local asked = tonumber(redis.call('get', KEYS[1])) + tonumber(ARGV[1])
if asked <= tonumber(ARGV[3]) then
  redis.call('incrby', KEYS[1], ARGV[1])
end
local ttl = redis.call('pttl', KEYS[1])
if ttl == -1 then
  redis.call('expire', KEYS[1], ARGV[2])
  ttl = 1000 * ARGV[2]
end
return {asked, ttl}`;

/**
 * Runs one call to Redis: a refusal (RateLimiterRes) is the limit's answer and passes through;
 * any other failure, or no answer within REDIS_DEADLINE_MS, is DependencyUnavailableError.
 */
async function failClosed<T>(
  call: () => Promise<T>,
  onError?: () => void,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${REDIS_DEADLINE_MS} ms`)),
      REDIS_DEADLINE_MS,
    );
  });
  try {
    return await Promise.race([call(), deadline]);
  } catch (error) {
    if (error instanceof RateLimiterRes) throw error;
    onError?.();
    throw new DependencyUnavailableError("rate limiter", error);
  } finally {
    clearTimeout(timer);
  }
}

function failingClosed(
  limiter: RateLimiterRedis,
  onError?: () => void,
): WindowLimiter {
  const closed = <T>(call: () => Promise<T>) => failClosed(call, onError);
  return {
    points: limiter.points,
    consume: (key, points, more) =>
      closed(() => limiter.consume(key, points, more)),
    penalty: (key, points, more) =>
      closed(() => limiter.penalty(key, points, more)),
    reward: (key, points, more) =>
      closed(() => limiter.reward(key, points, more)),
    get: (key, more) => closed(() => limiter.get(key, more)),
    set: (key, points, seconds, more) =>
      closed(() => limiter.set(key, points, seconds, more)),
    delete: (key, more) => closed(() => limiter.delete(key, more)),
  };
}

/**
 * Windows kept in Redis through `client` (redis-client.ts's connectRedis); `onError` is told of
 * each call that fails or is not answered in time (metrics), not of a refusal.
 */
export function redisLimitStore(
  client: RedisClient,
  onError?: () => void,
): LimitStore {
  const make = (options: WindowOptions, script?: string) =>
    new RateLimiterRedis({
      ...options,
      keyPrefix: KEY_NAMESPACE + options.keyPrefix,
      storeClient: client,
      // node-redis, not ioredis: without it the library calls ioredis's `rlflxIncr`.
      useRedisPackage: true,
      // Not connected: refuse at once. No insuranceLimiter either: a memory fallback would
      // let each replica admit a whole limit of its own (decision 036).
      rejectIfRedisNotReady: true,
      ...(script !== undefined && { customIncrTtlLuaScript: script }),
    });
  return {
    window: (options) => failingClosed(make(options), onError),
    allOrNothingWindow(options) {
      const limiter = failingClosed(
        make(options, ALL_OR_NOTHING_SCRIPT),
        onError,
      );
      return {
        ...limiter,
        consume: async (key, points = 1, more) => {
          try {
            return await limiter.consume(key, points, more);
          } catch (rejection) {
            if (!(rejection instanceof RateLimiterRes)) throw rejection;
            // The script added nothing: say what the window holds, as the memory store does.
            const consumed = rejection.consumedPoints - points;
            throw new RateLimiterRes(
              Math.max(0, options.points - consumed),
              rejection.msBeforeNext,
              consumed,
              false,
            );
          }
        },
      };
    },
    // Not told to onError: a readiness probe or scrape asking while Redis is down would count
    // each ask as one more Redis error, on top of the requests' own.
    ping: () =>
      failClosed(async () => {
        await client.ping();
      }),
  };
}
