// Two service replicas counting in one Redis (RATE_LIMIT_URL), over real sockets: a trial key's
// limit stays exact however the requests are spread, and while Redis is away every limited
// request is a 503 to retry, never an unlimited answer and never a hang, until it is back.
import {
  API_KEY_HEADER,
  HEALTH_PATH,
  PLAN_LIMITS,
  PROBLEM_CONTENT_TYPE,
  RATE_LIMIT_HEADERS,
  REQUEST_ID_HEADER,
  RETRY_AFTER_HEADER,
} from "@vics/shared";
import { createRateLimiter } from "@vics/server-kit/rate-limiter";
import { redisLimitStore } from "@vics/server-kit/redis-rate-limiter";
import { loopbackServers } from "@vics/server-kit/testing/loopback-server";
import { settled, untilAnswering } from "@vics/server-kit/testing/redis-outage";
import { sharedRedis } from "@vics/server-kit/testing/redis-replicas";
import { describe, expect, it } from "vitest";
import { createApp } from "../app.ts";
import { freshServices } from "../testing/services.ts";
import { testAppDeps } from "../testing/index.ts";
import {
  createWrongKeyBudget,
  WRONG_KEYS_PER_WINDOW,
} from "./wrong-key-budget.ts";

const redis = sharedRedis();

const start = freshServices();
const serve = loopbackServers();

/** `count` replicas of one service (one database), each with its own Redis client, listening. */
async function replicas(count: number) {
  const service = await start();
  const bases: string[] = [];
  const limiters = [];
  for (let i = 0; i < count; i++) {
    const client = await redis.client();
    const store = redisLimitStore(client);
    const rateLimiter = createRateLimiter(store);
    limiters.push(rateLimiter);
    const app = createApp({
      ...testAppDeps(service.store),
      rateLimiter,
      wrongKeyBudget: createWrongKeyBudget(WRONG_KEYS_PER_WINDOW, store),
    });
    bases.push((await serve(app.fetch)).base);
  }
  return { service, bases, limiters };
}

const INSURANCE = "/v1/vehicle/AB12CDE/insurance";

describe("rate limits in Redis, shared by two replicas", () => {
  it("25 requests at once with a trial key, spread over both: exactly 10 answered", async () => {
    const { service, bases } = await replicas(2);
    const key = await service.createKey("trial");
    const responses = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        fetch(bases[i % 2]! + INSURANCE, {
          headers: { [API_KEY_HEADER]: key },
        }),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status !== 429)).toHaveLength(
      PLAN_LIMITS.trial,
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(
      PLAN_LIMITS.trial,
    );
    const remaining = responses
      .filter((response) => response.status === 200)
      .map((response) =>
        Number(response.headers.get(RATE_LIMIT_HEADERS.remaining)),
      )
      .sort((a, b) => b - a);
    expect(remaining).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    await Promise.all(responses.map((response) => response.body?.cancel()));
  });

  it("while Redis is down: 503 with Retry-After as a problem document; then 200 again by itself", async () => {
    const { service, bases, limiters } = await replicas(2);
    const key = await service.createKey("trial");
    const first = await fetch(bases[0]! + INSURANCE, {
      headers: { [API_KEY_HEADER]: key },
    });
    expect(first.status).toBe(200);
    await first.body?.cancel();

    await redis.server().stop();
    try {
      for (const base of bases)
        for (const headers of [
          { [API_KEY_HEADER]: key },
          // Without a key (the per-address limit), and with a wrong one (the shared budget).
          {},
          { [API_KEY_HEADER]: "not-a-key" },
        ]) {
          const outcome = await settled(fetch(base + INSURANCE, { headers }));
          expect(outcome.ok).toBe(true);
          if (!outcome.ok) continue;
          const response = outcome.value;
          expect(response.status).toBe(503);
          expect(response.headers.get(RETRY_AFTER_HEADER)).toBe("5");
          expect(response.headers.get("Content-Type")).toBe(
            PROBLEM_CONTENT_TYPE,
          );
          expect(response.headers.get(REQUEST_ID_HEADER)).toBeTruthy();
          // No limit was read, so none is claimed.
          expect(response.headers.has(RATE_LIMIT_HEADERS.remaining)).toBe(
            false,
          );
          expect(await response.json()).toMatchObject({
            status: 503,
            code: "SERVICE_UNAVAILABLE",
            detail: expect.stringContaining("rate limiter"),
          });
        }
      // The health check counts nothing, so it still answers.
      expect((await fetch(bases[0]! + HEALTH_PATH)).status).toBe(200);
      await expect(limiters[0]!.ping()).rejects.toMatchObject({
        dependency: "rate limiter",
      });
    } finally {
      await redis.server().start();
    }

    // The same replicas, the same clients: they reconnect by themselves.
    for (const limiter of limiters) await untilAnswering(() => limiter.ping());
    for (const base of bases) {
      const response = await fetch(base + INSURANCE, {
        headers: { [API_KEY_HEADER]: key },
      });
      expect(response.status).toBe(200);
      await response.body?.cancel();
    }
  });
});
