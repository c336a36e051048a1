// Two proxy replicas counting in one Redis (RATE_LIMIT_URL) over one store: each person's limit
// and the sign-in throttle stay exact whichever replica a request reaches, and while Redis is
// away those requests are a 503 to retry (never unlimited, never a hang), until it is back.
import {
  AUTH_PATHS,
  CLIENT_HEADER,
  PROBLEM_CONTENT_TYPE,
  ProblemSchema,
  RETRY_AFTER_HEADER,
  paths,
} from "@vics/shared";
import type { LimitStore } from "@vics/server-kit/rate-limiter";
import { redisLimitStore } from "@vics/server-kit/redis-rate-limiter";
import { settled, untilAnswering } from "@vics/server-kit/testing/redis-outage";
import { sharedRedis } from "@vics/server-kit/testing/redis-replicas";
import { describe, expect, it } from "vitest";
import { hashPassword } from "../auth/passwords.ts";
import {
  createTestProxy,
  fakeUpstream,
  memoryProxyStore,
} from "../../testing/index.ts";
import { createUserLimiter } from "./user-limits.ts";

const redis = sharedRedis();

const LIMITS = { staff: 5, fleet: 10, admin: 10 };
const THROTTLE = { perAccount: 3, perAddress: 100, windowSeconds: 900 };
const PASSWORD = "sunflower over the depot";
const WEB = { [CLIENT_HEADER]: "web" };

/** Two replicas over one store (as over one PostgreSQL), each with its own Redis client. */
async function replicas() {
  const store = memoryProxyStore();
  const upstream = fakeUpstream();
  const limitStores: LimitStore[] = [];
  const apps = [];
  for (let i = 0; i < 2; i++) {
    const client = await redis.client();
    const limitStore = redisLimitStore(client);
    limitStores.push(limitStore);
    apps.push(
      createTestProxy({
        store,
        fetch: upstream.fetch,
        limiter: createUserLimiter(LIMITS, limitStore),
        limitStore,
        staffAccess: { throttle: THROTTLE },
      }),
    );
  }
  const [one, two] = apps as [
    ReturnType<typeof createTestProxy>,
    ReturnType<typeof createTestProxy>,
  ];
  /** A signed-in person's requests, sent to replica `i % 2`. */
  const as = async (role: "staff" | "fleet") => {
    const cookie = await one.signIn(role);
    return async (
      i: number,
      path: string,
      init: RequestInit = {},
    ): Promise<Response> =>
      [one, two][i % 2]!.anonymous.request(path, {
        ...init,
        headers: {
          ...WEB,
          Cookie: cookie,
          ...(init.body ? { "Content-Type": "application/json" } : {}),
        },
      });
  };
  const signIn = async (
    i: number,
    email: string,
    password: string,
  ): Promise<Response> =>
    [one, two][i % 2]!.anonymous.request(AUTH_PATHS.signIn, {
      method: "POST",
      headers: { ...WEB, "Content-Type": "application/json" },
      body: JSON.stringify({ email, password }),
    });
  return { store, upstream, limitStores, as, signIn };
}

const SINGLE = `/api${paths.insurance("AB12CDE")}`;
const BULK = `/api${paths.bulkInsurance()}`;
const bulk = (count: number) => ({
  method: "POST",
  body: JSON.stringify({
    registrations: ["AB12CDE", "XY99ZZZ", "LP08SED", "UN51NSD"].slice(0, count),
  }),
});

describe("per-user limits in Redis, across two replicas", () => {
  it("admit exactly a person's limit of concurrent checks, wherever they land", async () => {
    const { as, upstream } = await replicas();
    const send = await as("staff");
    const statuses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        send(i, SINGLE).then(async (response) => {
          await response.body?.cancel();
          return response.status;
        }),
      ),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(
      LIMITS.staff,
    );
    expect(statuses.filter((status) => status === 429)).toHaveLength(
      12 - LIMITS.staff,
    );
    expect(upstream.requests).toHaveLength(LIMITS.staff);
  });

  it("count nothing for a refused bulk check, on either replica", async () => {
    const { as } = await replicas();
    const send = await as("fleet");
    // Six requests of 4 look-ups at once against 10: two fit, four are refused whole.
    const statuses = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        send(i, BULK, bulk(4)).then(async (response) => {
          await response.body?.cancel();
          return response.status;
        }),
      ),
    );
    expect(statuses.toSorted()).toEqual([200, 200, 429, 429, 429, 429]);
    // The 2 left are still there, on the other replica too.
    expect((await send(1, BULK, bulk(2))).status).toBe(200);
    expect((await send(0, SINGLE)).status).toBe(429);
  });
});

describe("the sign-in throttle in Redis, across two replicas", () => {
  it("counts failed sign-ins from both replicas together", async () => {
    const { store, signIn } = await replicas();
    await store.createUser(
      {
        email: "ann@example.org",
        name: "Ann",
        role: "staff",
        passwordHash: await hashPassword(PASSWORD),
      },
      new Date(),
    );
    for (let i = 0; i < THROTTLE.perAccount; i++)
      expect((await signIn(i, "ann@example.org", `guess ${i}`)).status).toBe(
        401,
      );
    // Even the right password, on either replica, waits now.
    for (const i of [0, 1]) {
      const response = await signIn(i, "ann@example.org", PASSWORD);
      expect(response.status).toBe(429);
      expect(Number(response.headers.get(RETRY_AFTER_HEADER))).toBeGreaterThan(
        800,
      );
    }
  });
});

describe("without Redis", () => {
  it("checks and sign-ins are a 503 problem to retry, then work again by themselves", async () => {
    const { store, as, signIn, limitStores, upstream } = await replicas();
    await store.createUser(
      {
        email: "ann@example.org",
        name: "Ann",
        role: "staff",
        passwordHash: await hashPassword(PASSWORD),
      },
      new Date(),
    );
    const send = await as("staff");

    await redis.server().stop();
    try {
      for (const i of [0, 1])
        for (const request of [
          () => send(i, SINGLE),
          () => signIn(i, "ann@example.org", PASSWORD),
          () => signIn(i, "ann@example.org", "not the password at all"),
        ]) {
          const outcome = await settled(request());
          expect(outcome.ok).toBe(true);
          if (!outcome.ok) continue;
          const response = outcome.value;
          expect(response.status).toBe(503);
          expect(response.headers.get(RETRY_AFTER_HEADER)).toBe("5");
          expect(response.headers.get("Cache-Control")).toBe("no-store");
          expect(response.headers.get("Content-Type")).toBe(
            PROBLEM_CONTENT_TYPE,
          );
          // The words the sign-in page and the checks show.
          expect(ProblemSchema.parse(await response.json())).toMatchObject({
            code: "SERVICE_UNAVAILABLE",
            detail:
              "VICS cannot answer right now: its rate limiter is not answering. Nothing was done; retry in 5 seconds.",
          });
        }
      // Nothing reached the service, and no session was opened.
      expect(upstream.requests).toHaveLength(0);
      await expect(limitStores[0]!.ping()).rejects.toMatchObject({
        dependency: "rate limiter",
      });
    } finally {
      await redis.server().start();
    }

    for (const limitStore of limitStores)
      await untilAnswering(() => limitStore.ping());
    for (const i of [0, 1]) {
      expect((await send(i, SINGLE)).status).toBe(200);
      expect((await signIn(i, "ann@example.org", PASSWORD)).status).toBe(200);
    }
  });
});
