import { ProblemError } from "@vics/shared/server/problem-error";
import { silentLogger } from "@vics/shared/server/logger";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Forward } from "../forward/forward.ts";
import { jsonRequest, signedInApp } from "../test-support/signed-in-app.ts";
import { auditedForward, checkAction } from "./audited-forward.ts";

let harness: ReturnType<typeof signedInApp>;
beforeEach(() => {
  harness = signedInApp();
});
afterEach(() => harness.store.close());

describe("which upstream paths are checks", () => {
  it("names the four checks and nothing else", () => {
    expect(checkAction("/v1/vehicle/AB12CDE/insurance")).toBe(
      "check.insurance",
    );
    expect(checkAction("/v1/compliance/AB12CDE")).toBe("check.compliance");
    expect(checkAction("/v1/vehicle/bulk-insurance")).toBe(
      "check.bulk-insurance",
    );
    expect(checkAction("/v1/vehicle/bulk-compliance")).toBe(
      "check.bulk-compliance",
    );
    expect(checkAction("/v1/openapi.json")).toBeUndefined();
  });
});

describe("an audited check", () => {
  it("is committed, with its user, registrations, outcome, request id, before the answer", async () => {
    const { cookie, user } = await harness.signedIn("fleet", "ann@example.org");
    let eventsWhenAnswered = -1;
    const upstream: Forward = async () => new Response("{}", { status: 200 });
    const audited = auditedForward(upstream, harness.store, () =>
      Date.parse("2026-11-24T10:00:00Z"),
    );
    harness.app.post("/check", async (c) => {
      const response = await audited(c, {
        path: "/v1/vehicle/bulk-insurance",
        registrations: ["AB12CDE", "XY99ZZZ"],
      });
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
    harness.app.get("/check", (c) =>
      audited(c, {
        path: "/v1/compliance/AB12CDE",
        registrations: ["AB12CDE"],
      }),
    );
    expect(
      (await harness.app.request("/check", { headers: { Cookie: cookie } }))
        .status,
    ).toBe(502);
    const [event] = await harness.store.searchAudit({ limit: 1 });
    expect(event).toMatchObject({ action: "check.compliance", outcome: "502" });
  });

  it("names the day and the instant a check was asked about, beside its verdict", async () => {
    const { cookie } = await harness.signedIn("staff");
    const answered: Forward = async () =>
      new Response(JSON.stringify({ insured: false }), { status: 200 });
    const audited = auditedForward(answered, harness.store, Date.now);
    harness.app.get("/check", (c) =>
      audited(c, {
        path: "/v1/vehicle/AB12CDE/insurance",
        registrations: ["AB12CDE"],
        pointInTime: {
          date: "2026-06-08",
          asKnownAt: "2026-06-09T12:00:00Z",
        },
      }),
    );
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
    const answered: Forward = async () => new Response("{}", { status: 200 });
    const broken = {
      ...harness.store,
      appendAudit: () => Promise.reject(new Error("disk full")),
    };
    const audited = auditedForward(answered, broken, Date.now);
    harness.app.get("/check", (c) =>
      audited(c, {
        path: "/v1/compliance/AB12CDE",
        registrations: ["AB12CDE"],
      }),
    );
    const response = await harness.app.request("/check", {
      headers: { Cookie: cookie },
    });
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain("{}");
  });
});

describe("the answer's JSON, for the verdict", () => {
  it("is the forwarder's own parse of the answer, kept with the response, not parsed again", async () => {
    const { createForwarder, forwardedJson, keepPassedJson } =
      await import("../forward/forward.ts");
    const { insuranceRecord } =
      await import("../test-support/fault-answers.ts");
    const { Hono } = await import("hono");
    const record = insuranceRecord("AB12CDE");
    const forward = createForwarder({
      upstreamUrl: "http://upstream.test",
      currentKey: () => "key",
      send: async () => ({
        status: 200,
        headers: new Headers({ "Content-Type": "application/json" }),
        body: JSON.stringify(record),
      }),
      timeoutMs: 1000,
      logger: silentLogger,
    });
    let passed: Response | undefined;
    const app = new Hono();
    app.get("/check", async (c) => {
      passed = await forward(c as never, {
        path: "/v1/vehicle/AB12CDE/insurance",
        registrations: ["AB12CDE"],
      });
      return passed;
    });
    await app.request("/check");
    expect(forwardedJson(passed!)).toEqual(record);
    const rebuilt = new Response("{}");
    keepPassedJson(passed!, rebuilt);
    expect(forwardedJson(rebuilt)).toEqual(record);
    expect(forwardedJson(new Response("{}"))).toBeUndefined();
  });
});
