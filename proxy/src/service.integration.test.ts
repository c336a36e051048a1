import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  BulkComplianceResultSchema,
  BulkResultSchema,
  ComplianceRecordSchema,
  InsuranceRecordSchema,
  OWN_LIMIT_HEADERS,
  PLAN_LIMITS,
  ProblemSchema,
  parseRateLimitHeaders,
} from "@vics/shared";
import { createTestService, type TestService } from "@vics/service/testing";
import { createTestProxy } from "./testing/index.ts";

/** The proxy wired straight to the real service app: no ports, real contract. */

let service: TestService;
let proxyKey: string;
let seenKeys: Array<string | null>;

function proxyToService() {
  return createTestProxy({
    apiKey: proxyKey,
    upstreamUrl: "http://service.internal",
    fetch: (input, init) => {
      const request = new Request(input, init);
      seenKeys.push(request.headers.get("X-API-Key"));
      return service.app.fetch(request);
    },
  });
}

beforeEach(async () => {
  service = await createTestService({ sandbox: true, sandboxDelayMs: 0 });
  proxyKey = await service.createKey("standard", "proxy");
  seenKeys = [];
});

afterEach(async () => {
  await service.close();
});

describe("through the proxy to the real service", () => {
  it("AB12CDE: 200 insurance record with the rate-limit headers", async () => {
    const { app } = proxyToService();
    const response = await app.request("/api/v1/vehicle/ab12-cde/insurance");
    expect(response.status).toBe(200);
    const record = InsuranceRecordSchema.parse(await response.json());
    expect(record).toMatchObject({ registration: "AB12CDE", insured: true });
    expect(parseRateLimitHeaders(response.headers)).toEqual({
      limit: PLAN_LIMITS.standard,
      remaining: PLAN_LIMITS.standard - 1,
      resetSeconds: expect.any(Number),
    });
    expect(response.headers.get("X-Request-Id")).toBeTruthy();
  });

  it("AB12CDE compliance: 200 compliance record", async () => {
    const { app } = proxyToService();
    const response = await app.request("/api/v1/compliance/AB12CDE");
    expect(response.status).toBe(200);
    const record = ComplianceRecordSchema.parse(await response.json());
    expect(record).toMatchObject({ registration: "AB12CDE", compliant: true });
  });

  it("an unknown vehicle: the service's 404 problem, passed through", async () => {
    const { app } = proxyToService();
    const response = await app.request("/api/v1/vehicle/ZZ99ZZZ/insurance");
    expect(response.status).toBe(404);
    const problem = ProblemSchema.parse(await response.json());
    expect(problem.code).toBe("VEHICLE_NOT_FOUND");
    expect(parseRateLimitHeaders(response.headers)).toBeDefined();
  });

  it("ER19ERR: the service's 500 problem, passed through", async () => {
    const { app } = proxyToService();
    const response = await app.request("/api/v1/vehicle/ER19ERR/insurance");
    expect(response.status).toBe(500);
    expect(ProblemSchema.parse(await response.json()).code).toBe("INTERNAL");
  });

  it("an invalid registration: the proxy's own 400 in the service's words, at no cost to the key", async () => {
    const { app } = proxyToService();
    const response = await app.request("/api/v1/compliance/NOT-A-PLATE!");
    expect(response.status).toBe(400);
    const problem = ProblemSchema.parse(await response.json());
    expect(problem.code).toBe("INVALID_REGISTRATION");
    expect(seenKeys).toEqual([]);
    const fromService = await service.app.fetch(
      new Request("http://service.internal/v1/compliance/NOT-A-PLATE!", {
        headers: { "X-API-Key": proxyKey },
      }),
    );
    expect(fromService.status).toBe(400);
    expect(problem.detail).toBe(
      ProblemSchema.parse(await fromService.json()).detail,
    );
  });

  it("the OpenAPI document", async () => {
    const { app } = proxyToService();
    const response = await app.request("/api/v1/openapi.json");
    expect(response.status).toBe(200);
    const document = (await response.json()) as { openapi: string };
    expect(document.openapi).toMatch(/^3\.1/);
  });

  it("the service sees the proxy's own key, never the browser's", async () => {
    const { app } = proxyToService();
    const browserKey = await service.createKey("trial", "browser");
    const response = await app.request("/api/v1/vehicle/AB12CDE/insurance", {
      headers: { "X-API-Key": browserKey },
    });
    expect(seenKeys).toEqual([proxyKey]);
    // The proxy's standard plan answered, not the browser's trial key.
    expect(response.headers.get("X-RateLimit-Limit")).toBe(
      String(PLAN_LIMITS.standard),
    );
  });

  it("one request id, the proxy's own, through the service and back; the browser's logged beside it", async () => {
    const { app, log } = proxyToService();
    const response = await app.request("/api/v1/compliance/AB12CDE", {
      headers: { "X-Request-Id": "web-check-001" },
    });
    const id = response.headers.get("X-Request-Id");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(log.entries.at(-1)?.fields).toMatchObject({
      requestId: id,
      correlationId: "web-check-001",
    });
  });

  it("a revoked or unknown proxy key: the 401 passes through and is logged", async () => {
    proxyKey = "vics_not_a_real_key_000000000000";
    const { app, log } = proxyToService();
    const response = await app.request("/api/v1/compliance/AB12CDE");
    expect(response.status).toBe(401);
    expect(ProblemSchema.parse(await response.json()).code).toBe(
      "UNAUTHORIZED",
    );
    expect(log.entries.some((entry) => entry.level === "warn")).toBe(true);
    expect(log.text()).not.toContain(proxyKey);
  });

  it("ER19SLO slower than the proxy's time-out: 504 from the proxy", async () => {
    await service.close();
    // The slow sandbox answer comes long after the proxy's time-out.
    service = await createTestService({ sandboxDelayMs: 2000 });
    proxyKey = await service.createKey("standard", "proxy");
    const { app } = createTestProxy({
      apiKey: proxyKey,
      timeoutMs: 50,
      fetch: (input, init) => service.app.fetch(new Request(input, init)),
    });
    const response = await app.request("/api/v1/compliance/ER19SLO");
    expect(response.status).toBe(504);
    expect(ProblemSchema.parse(await response.json()).code).toBe(
      "GATEWAY_TIMEOUT",
    );
  });
});

describe("the bulk checks through the proxy to the real service", () => {
  const post = (path: string, body: string, contentType = "application/json") =>
    new Request(`http://localhost${path}`, {
      method: "POST",
      body: new TextEncoder().encode(body),
      headers: { "Content-Type": contentType },
    });

  it("bulk insurance: 200, one item per registration, the counts and the rate-limit headers", async () => {
    const { app } = proxyToService();
    const response = await app.request(
      post(
        "/api/v1/vehicle/bulk-insurance",
        JSON.stringify({ registrations: ["ab12-cde", "ZZ99ZZZ", "ER19NFD"] }),
      ),
    );
    expect(response.status).toBe(200);
    expect(BulkResultSchema.parse(await response.json())).toMatchObject({
      results: [
        { registration: "AB12CDE", insured: true },
        { registration: "ZZ99ZZZ", error: "Vehicle not found" },
        { registration: "ER19NFD", error: "Vehicle not found" },
      ],
      processed: 3,
      successful: 1,
      failed: 2,
    });
    expect(parseRateLimitHeaders(response.headers)).toMatchObject({
      limit: PLAN_LIMITS.standard,
      remaining: PLAN_LIMITS.standard - 1,
    });
  });

  it("bulk compliance (extension): 200 with the compliance items", async () => {
    const { app } = proxyToService();
    const response = await app.request(
      post(
        "/api/v1/vehicle/bulk-compliance",
        JSON.stringify({ registrations: ["BD19ALL", "AB12CDE"] }),
      ),
    );
    expect(response.status).toBe(200);
    expect(
      BulkComplianceResultSchema.parse(await response.json()),
    ).toMatchObject({
      results: [
        { registration: "BD19ALL", compliant: false },
        { registration: "AB12CDE", compliant: true },
      ],
      processed: 2,
      successful: 2,
      failed: 0,
    });
  });

  it("ER19THR anywhere in the list: the service's 429 passes through with Retry-After", async () => {
    const { app } = proxyToService();
    const response = await app.request(
      post(
        "/api/v1/vehicle/bulk-insurance",
        JSON.stringify({ registrations: ["AB12CDE", "ER19THR"] }),
      ),
    );
    expect(response.status).toBe(429);
    expect(Number(response.headers.get("Retry-After"))).toBeGreaterThan(0);
    const problem = ProblemSchema.parse(await response.json());
    expect(problem.code).toBe("RATE_LIMITED");
    // The service's refusal, not the person's own limit.
    expect(problem.ownLimit).toBeUndefined();
    // The person's own budget is not spent: the meter, which shows it, does not say "none left".
    expect(
      Number(response.headers.get(OWN_LIMIT_HEADERS.remaining)),
    ).toBeGreaterThan(0);
  });

  it.each([
    ["text/plain", JSON.stringify({ registrations: ["AB12CDE"] })],
    ["application/json", "{"],
    ["application/json", JSON.stringify({ registrations: [] })],
    ["application/json", JSON.stringify({ registrations: ["A1", 2] })],
    [
      "application/json",
      JSON.stringify({ registrations: Array(1001).fill("A1") }),
    ],
    ["application/json", " ".repeat(64 * 1024 + 1)],
  ])(
    "a malformed body (%s %#): the proxy refuses it in the service's words, at no cost to the key",
    async (contentType, body) => {
      const { app } = proxyToService();
      const fromProxy = await app.request(
        post("/api/v1/vehicle/bulk-insurance", body, contentType),
      );
      expect(seenKeys).toEqual([]);
      // The same body sent to the service itself: same status and words.
      const fromService = await service.app.fetch(
        new Request("http://service.internal/v1/vehicle/bulk-insurance", {
          method: "POST",
          body: new TextEncoder().encode(body),
          headers: { "Content-Type": contentType, "X-API-Key": proxyKey },
        }),
      );
      expect(fromProxy.status).toBe(fromService.status);
      const proxyProblem = ProblemSchema.parse(await fromProxy.json());
      const serviceProblem = ProblemSchema.parse(await fromService.json());
      expect(proxyProblem.code).toBe(serviceProblem.code);
      expect(proxyProblem.detail).toBe(serviceProblem.detail);
      // Only the direct request counted against the proxy's key.
      expect(fromService.headers.get("X-RateLimit-Remaining")).toBe(
        String(PLAN_LIMITS.standard - 1),
      );
    },
  );
});
