// The limits in Redis, against a real redis-server: exact across replicas (each replica its
// own client), the same answers as the memory store, and closed while Redis is away: every call
// settles with DependencyUnavailableError, then the same clients work again once it is back.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { RateLimiterRes } from "rate-limiter-flexible";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRedis, type RedisServer } from "./testing/redis-server.ts";
import { settled, untilAnswering } from "./testing/redis-outage.ts";
import { memoryLogger } from "./testing/memory-logger.ts";
import { DependencyUnavailableError } from "./dependency-unavailable.ts";
import {
  createMemoryRateLimiter,
  memoryLimitStore,
} from "./memory-rate-limiter.ts";
import {
  createRateLimiter,
  type LimitStore,
  type RateLimiter,
  type RateLimitTier,
} from "./rate-limiter.ts";
import { openLimitStore } from "./limit-store.ts";
import { closeRedis, connectRedis, type RedisClient } from "./redis-client.ts";
import { redisLimitStore } from "./redis-rate-limiter.ts";

let redis: RedisServer;
const clients: RedisClient[] = [];
const logger = memoryLogger("info", "test");

/** A client of its own, as each replica has. */
async function replica(): Promise<RedisClient> {
  const client = await connectRedis({ url: redis.url, logger });
  clients.push(client);
  return client;
}

beforeAll(async () => {
  redis = await startRedis();
}, 30_000);
afterAll(async () => {
  for (const client of clients) closeRedis(client);
  await redis.close();
});

/** Every account is new, so tests sharing the one Redis never meet each other's counts. */
const account = () => `key:${randomUUID()}`;
const options = () => ({ points: 10, duration: 60, keyPrefix: randomUUID() });

/** The plan and address limits in Redis through `client`, as openLimitStore's apps make them. */
const limiterOn = (client: RedisClient): RateLimiter =>
  createRateLimiter(redisLimitStore(client));

/** A limiter and a window on `client`, and a call of every kind VICS makes on them. */
function everyKindOfCall(client: RedisClient) {
  const store = redisLimitStore(client);
  const limiter = createRateLimiter(store);
  const window = store.window(options());
  const strict = store.allOrNothingWindow(options());
  const calls = (): Promise<unknown>[] => [
    limiter.consume("trial", account()),
    limiter.consume("unauthenticated", "address:192.0.2.1"),
    limiter.ping(),
    window.get("ann"),
    window.penalty("ann", 1),
    window.reward("ann", 1),
    window.delete("ann"),
    strict.consume("ann", 2),
    strict.reward("ann", 2),
  ];
  return { limiter, window, calls };
}

/** Each call settles, refused with the rate limiter's DependencyUnavailableError. */
async function expectEachUnavailable(calls: Promise<unknown>[]): Promise<void> {
  for (const call of calls) {
    const outcome = await settled(call);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.error).toBeInstanceOf(DependencyUnavailableError);
      expect(outcome.error).toMatchObject({ dependency: "rate limiter" });
    }
  }
}

describe("the Redis rate limiter", () => {
  it("admits exactly the limit of many concurrent requests through two replicas", async () => {
    const replicas = [limiterOn(await replica()), limiterOn(await replica())];
    const key = account();
    const decisions = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        replicas[i % 2]!.consume("trial", key),
      ),
    );
    const allowed = decisions.filter((decision) => decision.allowed);
    expect(allowed).toHaveLength(10);
    expect(
      allowed.map((decision) => decision.remaining).sort((a, b) => b - a),
    ).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    for (const refused of decisions.filter((decision) => !decision.allowed))
      expect(refused).toMatchObject({ limit: 10, remaining: 0 });
  });

  it("decides as the memory limiter does for the same requests", async () => {
    const memory = createMemoryRateLimiter();
    const onRedis = limiterOn(await replica());
    const [a, b] = [account(), account()];
    const sequence: [RateLimitTier, string][] = [
      ...Array.from(
        { length: 12 },
        () => ["trial", a] as [RateLimitTier, string],
      ),
      ["trial", b],
      ["standard", a],
      ["unauthenticated", a],
    ];
    for (const [tier, key] of sequence) {
      const expected = await memory.consume(tier, key);
      const actual = await onRedis.consume(tier, key);
      const { resetSeconds, ...rest } = actual;
      const { resetSeconds: expectedReset, ...expectedRest } = expected;
      expect(rest).toEqual(expectedRest);
      // Both count the window from the account's first request; a slow second may pass.
      expect(Math.abs(resetSeconds - expectedReset)).toBeLessThanOrEqual(1);
    }
    await expect(onRedis.ping()).resolves.toBeUndefined();
  });
});

describe("redisLimitStore", () => {
  /** What a window's calls return, in the fields VICS reads. */
  async function outcomes(store: LimitStore, prefix: string) {
    const window = store.window({ points: 3, duration: 60, keyPrefix: prefix });
    const strict = store.allOrNothingWindow({
      points: 10,
      duration: 60,
      keyPrefix: `${prefix}-strict`,
    });
    const read = (result: RateLimiterRes | null) =>
      result && {
        consumedPoints: result.consumedPoints,
        remainingPoints: result.remainingPoints,
      };
    const attempt = (call: Promise<RateLimiterRes>) =>
      call.then(
        (result) => ({ allowed: true, ...read(result) }),
        (rejection: unknown) => {
          if (!(rejection instanceof RateLimiterRes)) throw rejection;
          return { allowed: false, ...read(rejection) };
        },
      );
    return [
      await window.get("ann"),
      await window.penalty("ann"),
      await window.penalty("ann"),
      await attempt(window.consume("ann")),
      await attempt(window.consume("ann")),
      await window.get("ann"),
      await window.delete("ann"),
      await window.get("ann"),
      await attempt(strict.consume("bob", 7)),
      await attempt(strict.consume("bob", 4)),
      await attempt(strict.consume("bob", 3)),
      await attempt(strict.consume("bob", 1)),
      await strict.reward("bob", 2),
      await attempt(strict.consume("bob", 2)),
    ].map((outcome) =>
      outcome instanceof RateLimiterRes ? read(outcome) : outcome,
    );
  }

  it("gives the memory store's answers for the same calls", async () => {
    const prefix = randomUUID();
    expect(await outcomes(redisLimitStore(await replica()), prefix)).toEqual(
      await outcomes(memoryLimitStore, prefix),
    );
  });

  it("counts nothing for refused requests, exactly, under concurrency through two replicas", async () => {
    const settings = options();
    const [one, two] = [
      redisLimitStore(await replica()).allOrNothingWindow(settings),
      redisLimitStore(await replica()).allOrNothingWindow(settings),
    ];
    // 3 + 3 + 3 fit in 10; every other request of 3 is refused and counts nothing.
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? one : two).consume("carol", 3).then(
          () => true,
          (rejection: unknown) => {
            expect(rejection).toBeInstanceOf(RateLimiterRes);
            expect(rejection).toMatchObject({
              consumedPoints: expect.any(Number),
            });
            return false;
          },
        ),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(3);
    expect(await one.get("carol")).toMatchObject({ consumedPoints: 9 });
    // The one point left is still there for a small request.
    expect(await two.consume("carol", 1)).toMatchObject({ remainingPoints: 0 });
  });
});

describe("the Redis user docs/deployment.md tells operators to make", () => {
  it("may count, refuse, reset and answer the readiness ping, with exactly that ACL", async () => {
    const guide = readFileSync(
      join(import.meta.dirname, "../../docs/deployment.md"),
      "utf8",
    );
    const acl = /`ACL SETUSER ([^`]+)`/.exec(guide)?.[1]?.split(" ");
    expect(acl?.slice(0, 2)).toEqual(["vics", "on"]);
    const admin = await replica();
    await admin.sendCommand([
      "ACL",
      "SETUSER",
      ...acl!.map((word) => (word === ">password" ? ">s3cret-pass" : word)),
    ]);
    const url = redis.url.replace("redis://", "redis://vics:s3cret-pass@");
    const client = await connectRedis({ url, logger });
    clients.push(client);
    const store = redisLimitStore(client);
    await store.ping();
    const limiter = createRateLimiter(store);
    const key = account();
    for (let i = 0; i < 10; i++)
      expect((await limiter.consume("trial", key)).allowed).toBe(true);
    expect((await limiter.consume("trial", key)).allowed).toBe(false);
    const window = store.window(options());
    await window.penalty("someone", 1);
    expect((await window.get("someone"))?.consumedPoints).toBe(1);
    await window.delete("someone");
    expect(await window.get("someone")).toBeNull();
  });
});

describe("openLimitStore", () => {
  it("keeps the limits in memory without RATE_LIMIT_URL, in Redis with it", async () => {
    const memory = await openLimitStore(undefined, logger);
    expect(memory.store).toBe(memoryLimitStore);
    memory.close();
    const shared = await openLimitStore(redis.url, logger);
    try {
      await shared.store.ping();
      const settings = options();
      await shared.store.window(settings).penalty("ann");
      // Another replica's window of the same name sees the count.
      expect(
        await redisLimitStore(await replica())
          .window(settings)
          .get("ann"),
      ).toMatchObject({ consumedPoints: 1 });
    } finally {
      shared.close();
    }
    await expect(shared.store.ping()).rejects.toBeInstanceOf(
      DependencyUnavailableError,
    );
  });
});

describe("a frozen Redis (the socket open, nothing answering)", () => {
  it("settles every kind of call with DependencyUnavailableError, never hangs, and works again once it answers", async () => {
    const { limiter, calls } = everyKindOfCall(await replica());
    await limiter.consume("trial", account());
    redis.freeze();
    try {
      await expectEachUnavailable(calls());
    } finally {
      redis.thaw();
    }
    await untilAnswering(() => limiter.ping());
    expect((await limiter.consume("trial", account())).allowed).toBe(true);
  }, 60_000);
});

describe("without Redis", () => {
  it("rejects every call with DependencyUnavailableError, then works again on the same clients", async () => {
    const { limiter, window, calls } = everyKindOfCall(await replica());
    await limiter.consume("trial", account());

    await redis.stop();
    try {
      await expectEachUnavailable(calls());
    } finally {
      await redis.start();
    }

    await untilAnswering(() => limiter.ping());
    expect(await limiter.consume("trial", account())).toMatchObject({
      allowed: true,
      remaining: 9,
    });
    expect(await window.penalty("ann")).toMatchObject({ consumedPoints: 1 });
    // One warning for the outage, one line for the return: never a line per retry.
    const outage = logger.events.filter((event) =>
      String(event.msg).startsWith("redis is not answering"),
    );
    expect(outage.length).toBeGreaterThanOrEqual(1);
    expect(outage.length).toBeLessThanOrEqual(clients.length);
    expect(
      logger.events.some((event) => event.msg === "redis is answering again"),
    ).toBe(true);
  });

  it("a replica started while Redis is down starts anyway, refuses, then works when it comes", async () => {
    await redis.stop();
    let limiter: RateLimiter | undefined;
    try {
      const client = await connectRedis({
        url: redis.url,
        logger,
        waitMs: 200,
      });
      clients.push(client);
      limiter = limiterOn(client);
      const outcome = await settled(limiter.consume("trial", account()));
      expect(outcome.ok).toBe(false);
      if (!outcome.ok)
        expect(outcome.error).toBeInstanceOf(DependencyUnavailableError);
    } finally {
      await redis.start();
    }
    const started = limiter!;
    await untilAnswering(() => started.ping());
    expect((await started.consume("trial", account())).allowed).toBe(true);
  });
});

describe("openLimitStore's onRedisError (the metrics' vics_redis_errors_total)", () => {
  it("is told of each limit call Redis does not answer and of the client's errors, never of a refusal or a ping", async () => {
    let errors = 0;
    const opened = await openLimitStore(redis.url, logger, () => errors++);
    try {
      const window = opened.store.window({ ...options(), points: 1 });
      await window.consume("ann");
      await expect(window.consume("ann")).rejects.toBeInstanceOf(
        RateLimiterRes,
      );
      expect(errors).toBe(0);

      redis.freeze();
      try {
        await expectEachUnavailable([window.get("ann"), opened.store.ping()]);
      } finally {
        redis.thaw();
      }
      // The limit's call, not the ping: a readiness probe asking while Redis is down is no
      // request of its own, and counting it would grow the errors with every probe.
      expect(errors).toBe(1);
      await untilAnswering(() => opened.store.ping());

      const before = errors;
      await redis.stop();
      try {
        await expectEachUnavailable([window.get("ann")]);
      } finally {
        await redis.start();
      }
      // The failed call, and the client's error event as its connection went.
      expect(errors).toBeGreaterThanOrEqual(before + 2);
      await untilAnswering(() => opened.store.ping());
    } finally {
      opened.close();
    }
  }, 60_000);
});
