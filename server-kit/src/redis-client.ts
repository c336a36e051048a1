/**
 * `@vics/server-kit/redis-client`: the node-redis client the service's and the proxy's rate
 * limits share between replicas (RATE_LIMIT_URL). It never crashes the process and never makes
 * a request wait for Redis: while Redis is away every command fails at once, and the client
 * keeps reconnecting until it is back (docs/decisions/036-fail-closed-without-redis.md).
 */
import { setTimeout as delay } from "node:timers/promises";
import { createClient } from "redis";
import type { Logger } from "./logger.ts";

/**
 * The longest a limiter call may wait for Redis before its request is a 503. A loopback or
 * LAN round trip takes well under a millisecond; this covers a socket that is open but no
 * longer answered (a frozen server, a dropped network), which fails no command by itself.
 */
export const REDIS_DEADLINE_MS = 2_000;

/** Between reconnection attempts: doubling from 50 ms to at most 2 s, never giving up. */
export function reconnectDelay(retries: number): number {
  const jitter = Math.floor(Math.random() * 100);
  return Math.min(2 ** Math.min(retries, 10) * 50, 2_000) + jitter;
}

export interface RedisClientOptions {
  /** redis://[user:password@]host:port[/db], or rediss:// */
  url: string;
  logger: Pick<Logger, "info" | "warn">;
  /** How long connectRedis waits for the first connection before it returns anyway. */
  waitMs?: number;
  /** Told of each of the client's error events, every one of an outage (metrics). */
  onError?: () => void;
}

function newClient(url: string) {
  return createClient({
    url,
    disableOfflineQueue: true,
    commandOptions: { timeout: REDIS_DEADLINE_MS },
    socket: {
      connectTimeout: REDIS_DEADLINE_MS,
      reconnectStrategy: reconnectDelay,
    },
  });
}

export type RedisClient = ReturnType<typeof newClient>;

/** Where the client connects, for log lines: never the password. */
function redisHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "redis";
  }
}

/**
 * A client that has started connecting, with its settings:
 * - `disableOfflineQueue`: while not connected, a command fails at once instead of waiting
 *   in a queue for a Redis that may not come back, which would hang every request;
 * - a command timeout of REDIS_DEADLINE_MS, for a socket that stopped answering;
 * - a reconnect strategy that never gives up (node-redis's default stops on a socket
 *   timeout), so the process recovers by itself when Redis returns;
 * - an `error` listener: without one, node-redis's first connection error crashes the process.
 *   One warning per outage, and one line when Redis answers again.
 *
 * Waits up to `waitMs` (default 5 s) for the first connection and returns either way: a
 * replica started while Redis is down answers 503 until it is up, rather than not starting.
 */
export async function connectRedis(
  options: RedisClientOptions,
): Promise<RedisClient> {
  const { logger } = options;
  const redis = redisHost(options.url);
  const client = newClient(options.url);
  let down = false;
  client.on("error", (error: Error) => {
    options.onError?.();
    if (down) return;
    down = true;
    logger.warn(
      "redis is not answering: rate-limited requests get 503 until it does",
      {
        redis,
        error: error.message,
      },
    );
  });
  client.on("ready", () => {
    if (down) logger.info("redis is answering again", { redis });
    down = false;
  });
  // Settles only once connected, or when the client is closed while still trying.
  const connected = client.connect().then(
    () => true,
    () => false,
  );
  const ready = await Promise.race([
    connected,
    delay(options.waitMs ?? 5_000, false, { ref: false }),
  ]);
  // An error has been logged already when Redis refused the connection.
  if (!ready && !down)
    logger.warn("redis is not answering yet; still trying", { redis });
  return client;
}

/** Closes at once: on shutdown nothing is left to count. */
export function closeRedis(client: RedisClient): void {
  client.destroy();
}
