import { errorHandler } from "@vics/server-kit/error-handlers";
import { silentLogger } from "@vics/server-kit/logger";
import { requestId } from "@vics/server-kit/request-id";
import { Hono } from "hono";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { registerAuthRoutes } from "../auth/auth-routes.ts";
import { hashPassword } from "../auth/passwords.ts";
import { loadSession } from "../auth/session-middleware.ts";
import { Sessions, sessionCookie } from "../auth/sessions.ts";
import { SignInThrottle } from "../auth/sign-in-throttle.ts";
import type { AppEnv } from "../http/app-env.ts";
import { PROXY_PROBLEMS } from "../../gateway/http/problem.ts";
import type { ProxyStore } from "../store/proxy-store.ts";
import { openSqliteProxyStore } from "../store/sqlite/sqlite-proxy-store.ts";
import { NOT_AN_EMAIL, auditedEmail } from "./sign-in-audit.ts";

const PASSWORD = "sunflower over the depot";
const PER_ADDRESS = 5;
let store: ProxyStore;
let app: Hono<AppEnv>;

beforeEach(async () => {
  store = openSqliteProxyStore({ path: ":memory:", auditRetentionDays: 30 });
  const sessions = new Sessions(store, Date.now, {
    idleMs: 3_600_000,
    absoluteMs: 7_200_000,
  });
  const cookie = sessionCookie(undefined);
  app = new Hono<AppEnv>();
  app.use(requestId);
  // The address a load balancer would have found (client-address.ts): one per test client.
  app.use((c, next) => {
    c.set("clientAddress", c.req.header("X-Test-Address") ?? "203.0.113.9");
    return next();
  });
  app.use(loadSession(sessions, cookie));
  registerAuthRoutes(app, {
    store,
    sessions,
    throttle: new SignInThrottle({
      perAccount: 3,
      perAddress: PER_ADDRESS,
      windowSeconds: 900,
    }),
    cookie,
    now: Date.now,
    localSignIn: true,
    oidcLabel: null,
  });
  app.onError(
    errorHandler({ logger: silentLogger, internal: PROXY_PROBLEMS.internal }),
  );
  await store.createUser(
    {
      email: "ann@example.org",
      name: "Ann",
      role: "fleet",
      passwordHash: await hashPassword(PASSWORD),
    },
    new Date(),
  );
});
afterEach(() => store.close());

const signIn = (email: string, password = "wrong guess", address?: string) =>
  app.request("/api/auth/sign-in", {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      ...(address && { "X-Test-Address": address }),
    },
    body: JSON.stringify({ email, password }),
  });

describe("the audit of failed sign-ins", () => {
  it("a signed-out flood of 500 leaves a bounded number of events whose counts add up", async () => {
    const statuses: number[] = [];
    for (let round = 0; round < 10; round++) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, index) =>
          signIn(`guess-${round}-${index}@example.org`),
        ),
      );
      statuses.push(...answers.map((answer) => answer.status));
    }
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(
      400,
    );
    const events = await store.searchAudit({ limit: 1000 });
    // The tries before the throttle, each its own event; then one counted event per refusal
    // (throttled, or too many hashes in flight) and window (two, should it cross a window's end).
    expect(events.length).toBeLessThanOrEqual(PER_ADDRESS + 4);
    expect(events.reduce((sum, event) => sum + (event.count ?? 1), 0)).toBe(
      500,
    );
    const counted = events.filter((event) => event.count !== undefined);
    expect(counted.length).toBeGreaterThanOrEqual(1);
    for (const event of counted)
      expect(event).toMatchObject({
        action: "sign-in.failed",
        outcome: expect.stringMatching(/^(throttled|busy)$/),
        userEmail: null,
        clientAddress: "203.0.113.9",
      });
  });

  it("counts an IPv6 /64 as one address, whichever of its addresses the tries come from", async () => {
    for (let i = 1; i <= PER_ADDRESS + 3; i++)
      await signIn(
        `guess-${i}@example.org`,
        "wrong guess",
        `2001:db8:0:1::${i}`,
      );
    const counted = (await store.searchAudit({ limit: 20 })).filter(
      (event) => event.count !== undefined,
    );
    expect(counted.map((event) => event.count)).toEqual([3]);
  });

  it("keeps a real account's wrong passwords each as an event, until the throttle", async () => {
    for (let i = 0; i < 3; i++) await signIn("Ann@Example.org");
    // Another address: not this account's stranger; the account's limit is reached.
    await signIn("ann@example.org", "wrong guess", "198.51.100.7");
    const events = await store.searchAudit({ limit: 10 });
    expect(
      events.map((event) => [event.userEmail, event.outcome, event.count]),
    ).toEqual([
      [null, "throttled", 1],
      ["ann@example.org", "wrong", undefined],
      ["ann@example.org", "wrong", undefined],
      ["ann@example.org", "wrong", undefined],
    ]);
  });

  it("stores a typed email only when it is one, in lower case", async () => {
    await signIn("Nobody@Example.ORG");
    await signIn("<img src=x onerror=alert(1)>");
    await signIn("a".repeat(300) + "@example.org");
    const events = await store.searchAudit({ limit: 10 });
    expect(events.map((event) => event.userEmail)).toEqual([
      NOT_AN_EMAIL,
      NOT_AN_EMAIL,
      "nobody@example.org",
    ]);
    expect(auditedEmail(" x@y.example ")).toBe("x@y.example");
  });
});
