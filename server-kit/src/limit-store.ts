import type { Logger } from "./logger.ts";
import { memoryLimitStore } from "./memory-rate-limiter.ts";
import type { LimitStore } from "./rate-limiter.ts";

export interface OpenLimitStore {
  store: LimitStore;
  /** For the graceful close: drops the Redis connection, if there is one. */
  close(): void;
}

/**
 * Where an app's limits are counted: in Redis at `url` (RATE_LIMIT_URL), shared by every
 * replica and failing closed (decision 036), else in this process's memory. node-redis is
 * loaded only when a Redis is configured: it takes over a second to load on a busy machine.
 */
export async function openLimitStore(
  url: string | undefined,
  logger: Logger,
  /** Told of each error Redis gives: the client's error events and failed commands (metrics). */
  onRedisError?: () => void,
): Promise<OpenLimitStore> {
  if (url === undefined) return { store: memoryLimitStore, close: () => {} };
  const [{ closeRedis, connectRedis }, { redisLimitStore }] = await Promise.all(
    [import("./redis-client.ts"), import("./redis-rate-limiter.ts")],
  );
  const client = await connectRedis({ url, logger, onError: onRedisError });
  return {
    store: redisLimitStore(client, onRedisError),
    close: () => closeRedis(client),
  };
}
