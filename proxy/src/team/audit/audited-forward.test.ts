import { ProblemError } from "@vics/server-kit/problem-error";
import { silentLogger } from "@vics/server-kit/logger";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CHECK_ACTIONS, ROUTE_PATTERNS, problemDocument } from "@vics/shared";
import type { Forward } from "../../gateway/forward/forward.ts";
import { FORWARDED_OPERATIONS } from "../../gateway/forward/forwarded-operations.ts";
import { jsonRequest, signedInApp } from "../../testing/signed-in-app.ts";
import { auditedForward } from "./audited-forward.ts";

/** The declared operation of a service route pattern. */
const operationOf = (route: string) => {
  const operation = FORWARDED_OPERATIONS.find((each) => each.route === route);
  if (!operation) throw new Error(`no operation for ${route}`);
  return operation;
};

/** A forward that answers `response`, with `answer` as its parsed JSON. */
const answering =
  (response: () => Response, answer?: unknown): Forward =>
  async <Answer>() => ({ response: response(), answer: answer as Answer });

let harness: ReturnType<typeof signedInApp>;
beforeEach(() => {
  harness = signedInApp();
});
afterEach(() => {
  vi.restoreAllMocks();
  harness.store.close();
});

describe("which forwarded operations are checks", () => {
  // What each operation's action is, forwarded-operations.ts declares; the list it must match is
  // CHECK_ACTIONS, which the audit and the user limit rely on.
  it("are the checks CHECK_ACTIONS names, and nothing else", () => {
    expect(
      FORWARDED_OPERATIONS.flatMap(({ check }) => check?.action ?? []).sort(),
    ).toEqual([...CHECK_ACTIONS].sort());
  });
});

describe("an audited check", () => {
  it("is committed, with its user, registrations, outcome, request id, before the answer", async () => {
    const { cookie, user } = await harness.signedIn("fleet", "ann@example.org");
    let eventsWhenAnswered = -1;
    const upstream = answering(() => new Response("{}", { status: 200 }));
    const audited = auditedForward(upstream, harness.store, () =>
      Date.parse("2026-11-24T10:00:00Z"),
    );
    harness.app.post("/check", async (c) => {
      const { response } = await audited(
        c,
        operationOf(ROUTE_PATTERNS.bulkInsurance),
        {
          path: "/v1/vehicle/bulk-insurance",
          registrations: ["AB12CDE", "XY99ZZZ"],
        },
      );
      eventsWhenAnswered = (await harness.store.searchAudit({ limit: 5 }))
        .length;
      return response;
    });
    const response = await harness.app.request("/check", {
      ...jsonRequest("POST", {}, cookie),
      headers: { Cookie: cookie, "X-Request-Id": "req-12345678" },
    });
    expect(response.status).toBe(200);
    expect(eventsWhenAnswered).toBe(1);
    const [event] = await harness.store.searchAudit({
      registration: "XY99ZZZ",
      limit: 1,
    });
    expect(event).toMatchObject({
      userId: user.id,
      userEmail: "ann@example.org",
      action: "check.bulk-insurance",
      registrations: ["AB12CDE", "XY99ZZZ"],
      outcome: "200",
      // The proxy's own id, never the client's, which is kept apart as its correlation id.
      requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      correlationId: "req-12345678",
      at: Date.parse("2026-11-24T10:00:00Z"),
    });
  });

  it("is recorded when the upstream fails, with the proxy's status", async () => {
    const { cookie } = await harness.signedIn("staff");
    const failing: Forward = async () => {
      throw new ProblemError(502, "BAD_GATEWAY", "down");
    };
    const audited = auditedForward(failing, harness.store, Date.now);
    harness.app.get("/check", async (c) => {
      const { response } = await audited(
        c,
        operationOf(ROUTE_PATTERNS.compliance),
        { path: "/v1/compliance/AB12CDE", registrations: ["AB12CDE"] },
      );
      return response;
    });
    expect(
      (await harness.app.request("/check", { headers: { Cookie: cookie } }))
        .status,
    ).toBe(502);
    const [event] = await harness.store.searchAudit({ limit: 1 });
    expect(event).toMatchObject({ action: "check.compliance", outcome: "502" });
  });

  it("names the day and the instant a check was asked about, beside its verdict", async () => {
    const { cookie } = await harness.signedIn("staff");
    const answered = answering(
      () => new Response(JSON.stringify({ insured: false }), { status: 200 }),
      { insured: false },
    );
    const audited = auditedForward(answered, harness.store, Date.now);
    harness.app.get("/check", async (c) => {
      const { response } = await audited(
        c,
        operationOf(ROUTE_PATTERNS.insurance),
        {
          path: "/v1/vehicle/AB12CDE/insurance",
          registrations: ["AB12CDE"],
          pointInTime: {
            date: "2026-06-08",
            asKnownAt: "2026-06-09T12:00:00Z",
          },
        },
      );
      return response;
    });
    await harness.app.request("/check", { headers: { Cookie: cookie } });
    const [event] = await harness.store.searchAudit({ limit: 1 });
    expect(event?.detail).toEqual({
      date: "2026-06-08",
      asKnownAt: "2026-06-09T12:00:00Z",
      verdict: "not-insured",
    });
  });

  it("is never answered when its event cannot be written", async () => {
    const { cookie } = await harness.signedIn("staff");
    const answered = answering(() => new Response("{}", { status: 200 }));
    const broken = {
      ...harness.store,
      appendAudit: () => Promise.reject(new Error("disk full")),
    };
    const audited = auditedForward(answered, broken, Date.now);
    harness.app.get("/check", async (c) => {
      const { response } = await audited(
        c,
        operationOf(ROUTE_PATTERNS.compliance),
        { path: "/v1/compliance/AB12CDE", registrations: ["AB12CDE"] },
      );
      return response;
    });
    const response = await harness.app.request("/check", {
      headers: { Cookie: cookie },
    });
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain("{}");
  });
});

describe("the answer's JSON, for the verdict", () => {
  it("is the forwarder's own parse of the answer, handed up through the limit and the audit, not parsed again", async () => {
    const { createForwarder } =
      await import("../../gateway/forward/forward.ts");
    const { userLimitedForward } =
      await import("../limits/user-limited-forward.ts");
    const { createMemoryUserLimiter } =
      await import("../limits/user-limits.ts");
    const { insuranceRecord } = await import("../../testing/fault-answers.ts");
    const record = insuranceRecord("AB12CDE");
    const forward = createForwarder({
      upstreamUrl: "http://upstream.test",
      currentKey: () => "key",
      send: async (url) =>
        url.endsWith("/insurance")
          ? {
              status: 200,
              headers: new Headers({ "Content-Type": "application/json" }),
              body: JSON.stringify(record),
            }
          : {
              status: 404,
              headers: new Headers({ "Content-Type": "application/json" }),
              body: JSON.stringify(
                problemDocument({
                  status: 404,
                  code: "VEHICLE_NOT_FOUND",
                  detail: "No vehicle.",
                  requestId: "req-1",
                }),
              ),
            },
      timeoutMs: 1000,
      logger: silentLogger,
    });
    const operation = operationOf(ROUTE_PATTERNS.insurance);
    const schema = operation.answer?.schema;
    if (!schema) throw new Error("the insurance check declares its answer");
    const parses = vi.spyOn(schema, "safeParse");
    const { cookie } = await harness.signedIn("staff");
    const answers: unknown[] = [];
    // The forwarder's answer as it left it, then as it came up through the user limit (which
    // sets its headers on the answer) and the audit (which reads its verdict).
    const recorded: Forward = async (c, op, upstream) => {
      const forwarded = await forward(c, op, upstream);
      answers.push(forwarded.answer);
      return forwarded;
    };
    const pipeline = auditedForward(
      userLimitedForward(recorded, createMemoryUserLimiter()),
      harness.store,
      Date.now,
    );
    harness.app.get("/check/:path", async (c) => {
      const forwarded = await pipeline(c, operation, {
        path: `/v1/${c.req.param("path")}`,
        registrations: ["AB12CDE"],
      });
      answers.push(forwarded.answer);
      return forwarded.response;
    });
    await harness.app.request("/check/insurance", {
      headers: { Cookie: cookie },
    });
    expect(answers[0]).toEqual(record);
    expect(answers[1]).toEqual(record);
    expect(answers[1]).toBe(answers[0]);
    expect(parses).toHaveBeenCalledOnce();
    await harness.app.request("/check/missing", {
      headers: { Cookie: cookie },
    });
    expect(answers.slice(2)).toEqual([undefined, undefined]);
    // A 404 is no answer to parse.
    expect(parses).toHaveBeenCalledOnce();
  });
});
