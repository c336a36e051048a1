import { describe, expect, it } from "vitest";
import {
  AUTH_PATHS,
  CLIENT_HEADER,
  ProblemSchema,
  OWN_LIMIT_HEADERS,
  RATE_LIMIT_HEADERS,
  paths,
} from "@vics/shared";
import { createTestProxy, fakeUpstream } from "../../testing/index.ts";

const WEB = { [CLIENT_HEADER]: "web" };
const bulk = (registrations: string[]) => ({
  method: "POST",
  headers: { ...WEB, "Content-Type": "application/json" },
  body: JSON.stringify({ registrations }),
});

describe("every /api route needs a signed-in user", () => {
  it.each([
    ["GET", `/api${paths.insurance("AB12CDE")}`],
    ["GET", `/api${paths.compliance("AB12CDE")}`],
    ["GET", `/api${paths.openapi()}`],
    ["POST", `/api${paths.bulkInsurance()}`],
    ["POST", `/api${paths.bulkCompliance()}`],
    ["GET", AUTH_PATHS.session],
    ["GET", AUTH_PATHS.users],
    ["GET", AUTH_PATHS.audit],
    ["GET", AUTH_PATHS.auditCsv],
    ["GET", AUTH_PATHS.recentChecks],
    ["GET", "/api/no-such-thing"],
  ])(
    "signed out, %s %s is a 401 with no data, and nothing goes upstream",
    async (method, path) => {
      const upstream = fakeUpstream();
      const { anonymous } = createTestProxy({ fetch: upstream.fetch });
      const init =
        method === "POST" ? bulk(["AB12CDE"]) : { method, headers: WEB };
      const response = await anonymous.request(path, init);
      expect(response.status).toBe(401);
      const problem = ProblemSchema.parse(await response.json());
      expect(problem.code).toBe("SIGN_IN_REQUIRED");
      expect(problem.detail).toMatch(/Sign in to use VICS/);
      expect(upstream.requests).toHaveLength(0);
    },
  );

  it("a cookie of a session that does not exist is a 401 too, and the answer leaves the cookie alone (it could race a sign-in in flight)", async () => {
    const upstream = fakeUpstream();
    const { anonymous } = createTestProxy({ fetch: upstream.fetch });
    const response = await anonymous.request(
      `/api${paths.insurance("AB12CDE")}`,
      { headers: { ...WEB, Cookie: `vics_session=${"A".repeat(43)}` } },
    );
    expect(response.status).toBe(401);
    expect(response.headers.get("Set-Cookie")).toBeNull();
    expect(upstream.requests).toHaveLength(0);
  });

  it("how to sign in is open: the sign-in methods need no session", async () => {
    const { anonymous } = createTestProxy({ fetch: fakeUpstream().fetch });
    const response = await anonymous.request(AUTH_PATHS.methods, {
      headers: WEB,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ local: true, oidc: null });
  });
});

describe("roles", () => {
  it("staff may check one vehicle but not run a fleet: a 403 in words, nothing upstream", async () => {
    const upstream = fakeUpstream();
    const { app } = createTestProxy({ fetch: upstream.fetch, role: "staff" });
    expect(
      (await app.request(`/api${paths.insurance("AB12CDE")}`)).status,
    ).toBe(200);
    const refused = await app.request(
      `/api${paths.bulkInsurance()}`,
      bulk(["AB12CDE"]),
    );
    expect(refused.status).toBe(403);
    const problem = ProblemSchema.parse(await refused.json());
    expect(problem.code).toBe("ROLE_REQUIRED");
    expect(problem.detail).toMatch(/Your role, staff.*needs the fleet role/);
    expect(upstream.requests).toHaveLength(1);
  });

  it("fleet may run a fleet but not manage users or read the audit", async () => {
    const { app } = createTestProxy({
      fetch: fakeUpstream().fetch,
      role: "fleet",
    });
    expect(
      (await app.request(`/api${paths.bulkCompliance()}`, bulk(["AB12CDE"])))
        .status,
    ).toBe(200);
    for (const path of [AUTH_PATHS.users, AUTH_PATHS.audit])
      expect((await app.request(path)).status).toBe(403);
  });
});

describe("each check is in the audit before its answer, with its user", () => {
  it("a single and a bulk check: one event each, registrations in full", async () => {
    const { app, store } = createTestProxy({ fetch: fakeUpstream().fetch });
    await app.request(`/api${paths.insurance("ab12 cde")}`);
    await app.request(
      `/api${paths.bulkInsurance()}`,
      bulk(["AB12CDE", "XY99ZZZ"]),
    );
    const events = await store.searchAudit({ checksOnly: true, limit: 10 });
    expect(events.map((event) => [event.action, event.registrations])).toEqual([
      ["check.bulk-insurance", ["AB12CDE", "XY99ZZZ"]],
      ["check.insurance", ["AB12CDE"]],
    ]);
    expect(new Set(events.map((event) => event.userEmail))).toEqual(
      new Set(["admin1@example.org"]),
    );
  });
});

describe("per-user limits", () => {
  it("count a bulk check's registrations, refuse what does not fit, and the headers show the tighter budget", async () => {
    const upstream = fakeUpstream();
    const { app, store } = createTestProxy({
      fetch: upstream.fetch,
      role: "fleet",
      limiter: (
        await import("../limits/user-limits.ts")
      ).createMemoryUserLimiter({
        staff: 5,
        fleet: 10,
        admin: 10,
      }),
    });
    const four = ["AB12CDE", "XY99ZZZ", "LP08SED", "UN51NSD"];
    const first = await app.request(`/api${paths.bulkInsurance()}`, bulk(four));
    expect(first.status).toBe(200);
    // 6 look-ups left: one more request of 4, not the service's plan's thousands.
    expect(first.headers.get(RATE_LIMIT_HEADERS.limit)).toBe("2");
    expect(first.headers.get(RATE_LIMIT_HEADERS.remaining)).toBe("1");
    // And the person's own budget in look-ups, the one the header's meter shows.
    expect(first.headers.get(OWN_LIMIT_HEADERS.limit)).toBe("10");
    expect(first.headers.get(OWN_LIMIT_HEADERS.remaining)).toBe("6");
    expect(first.headers.get(OWN_LIMIT_HEADERS.reset)).toMatch(/^\d+$/);
    expect(
      (await app.request(`/api${paths.bulkInsurance()}`, bulk(four))).status,
    ).toBe(200);
    const refused = await app.request(
      `/api${paths.bulkInsurance()}`,
      bulk(four),
    );
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(refused.headers.get(RATE_LIMIT_HEADERS.remaining)).toBe("0");
    expect(refused.headers.get(OWN_LIMIT_HEADERS.remaining)).toBe("2");
    const problem = ProblemSchema.parse(await refused.json());
    expect(problem.detail).toMatch(
      /your own limit of 10 look-ups a minute \(2 look-ups left\)/,
    );
    // Marked as the person's own limit, so the browser does not blame the team's key.
    expect(problem.ownLimit).toBe(true);
    // What did not fit counted nothing: the 2 left are still there for a smaller request.
    const two = await app.request(
      `/api${paths.bulkInsurance()}`,
      bulk(four.slice(0, 2)),
    );
    expect(two.status).toBe(200);
    expect(upstream.requests).toHaveLength(3);
    // The refused one is in the audit too, with its 429.
    const outcomes = (
      await store.searchAudit({ checksOnly: true, limit: 10 })
    ).map((event) => event.outcome);
    expect(outcomes).toEqual(["200", "429", "200", "200"]);
  });
});

describe("a fleet run's pacing under a person's own limit", () => {
  /** `count` distinct registrations of the current format: AA00AAA and on. */
  const plates = (count: number) =>
    Array.from({ length: count }, (_, i) => {
      const letter = (n: number) => String.fromCharCode(65 + (n % 26));
      const digits = String(i % 100).padStart(2, "0");
      const j = Math.floor(i / 100);
      return `A${letter(j)}${digits}X${letter(j + 1)}Z`;
    });

  it("a client that sends only what X-RateLimit-* allows never meets a 429, and waits for the window the headers name", async () => {
    const upstream = fakeUpstream();
    const { app } = createTestProxy({
      fetch: upstream.fetch,
      role: "fleet",
      limiter: (
        await import("../limits/user-limits.ts")
      ).createMemoryUserLimiter({ staff: 120, fleet: 2500, admin: 2500 }),
    });
    // The fleet run's rule (@vics/fleet, fleet/src/engine): another request of this size
    // goes only while Remaining is at least 1; at 0 it waits for Reset.
    const statuses: number[] = [];
    let remaining = 1;
    let reset = "";
    while (remaining >= 1 && statuses.length < 10) {
      const answer = await app.request(
        `/api${paths.bulkInsurance()}`,
        bulk(plates(1000)),
      );
      statuses.push(answer.status);
      remaining = Number(answer.headers.get(RATE_LIMIT_HEADERS.remaining));
      reset = answer.headers.get(RATE_LIMIT_HEADERS.reset) ?? "";
    }
    // 2,500 look-ups: two requests of 1,000, then the headers say to wait, not a 429.
    expect(statuses).toEqual([200, 200]);
    expect(remaining).toBe(0);
    expect(Number(reset)).toBeGreaterThan(0);
    expect(Number(reset)).toBeLessThanOrEqual(60);
    expect(upstream.requests).toHaveLength(2);
  });
});
