import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  ComplianceRecordSchema,
  InsuranceRecordSchema,
  PLAN_LIMITS,
  ProblemSchema,
  parseRateLimitHeaders,
} from "@vics/shared";
import { createTestService, type TestService } from "@vics/service/testing";
import { createTestProxy } from "./test-support.ts";

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

  it("an invalid registration: the service's 400 problem", async () => {
    const { app } = proxyToService();
    const response = await app.request("/api/v1/compliance/NOT-A-PLATE!");
    expect(response.status).toBe(400);
    expect(ProblemSchema.parse(await response.json()).code).toBe(
      "INVALID_REGISTRATION",
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

  it("one request id from the browser through the service and back", async () => {
    const { app, log } = proxyToService();
    const response = await app.request("/api/v1/compliance/AB12CDE", {
      headers: { "X-Request-Id": "web-check-001" },
    });
    expect(response.headers.get("X-Request-Id")).toBe("web-check-001");
    expect(log.entries.at(-1)?.fields.requestId).toBe("web-check-001");
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
