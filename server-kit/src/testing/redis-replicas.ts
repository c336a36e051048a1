/**
 * `@vics/server-kit/testing/redis-replicas`: the setup of a test file whose replicas count in one
 * real Redis (RATE_LIMIT_URL): the server for the file, emptied before each test (each test's
 * database numbers its keys and users afresh), and clients closed after each. Test support.
 */
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { silentLogger } from "../logger.ts";
import { closeRedis, connectRedis, type RedisClient } from "../redis-client.ts";
import { startRedis, type RedisServer } from "./redis-server.ts";

export interface SharedRedis {
  /** The running server, to stop and start in an outage test. */
  server(): RedisServer;
  /** A replica's own client, closed after the test. */
  client(): Promise<RedisClient>;
}

export function sharedRedis(): SharedRedis {
  let redis: RedisServer;
  const clients: RedisClient[] = [];
  beforeAll(async () => {
    redis = await startRedis();
  }, 30_000);
  afterAll(() => redis.close());
  beforeEach(async () => {
    const client = await connectRedis({ url: redis.url, logger: silentLogger });
    await client.flushAll();
    closeRedis(client);
  });
  afterEach(() => {
    for (const client of clients.splice(0)) closeRedis(client);
  });
  return {
    server: () => redis,
    async client() {
      const client = await connectRedis({
        url: redis.url,
        logger: silentLogger,
      });
      clients.push(client);
      return client;
    },
  };
}
