import { UNAUTHENTICATED_LIMIT } from "@vics/shared";
import { describe, expect, it } from "vitest";
import { registrationHasher } from "@vics/server-kit/registration-hash";
import { memoryLogger } from "@vics/server-kit/testing/memory-logger";
import { TEST_LOG_HASH_KEY } from "../testing/index.ts";
import { freshServices } from "../testing/services.ts";
import {
  call,
  expectMeteredHeaders,
  expectProblem,
} from "../testing/requests.ts";

const start = freshServices();

const LEAKY_MESSAGE =
  "SQLITE_ERROR: no such column: vehicles.regn in SELECT * FROM vehicles WHERE registration = ? (/work/main/service/src/store/sqlite/vehicle-queries.ts:12)";

describe("the one error model", () => {
  it("answers an unknown route with a 404 NOT_FOUND problem, key or not", async () => {
    const service = await start();
    const key = await service.createKey("standard");
    for (const path of [
      "/nope",
      "/v1/vehicle/AB12CDE",
      "/v2/compliance/AB12CDE",
    ]) {
      const response = await call(service, path, { key });
      expectMeteredHeaders(response, 120);
      await expectProblem(response, 404, "NOT_FOUND");
    }
    await expectProblem(await call(service, "/nope"), 404, "NOT_FOUND");
  });

  it.each([
    ["POST", "/v1/vehicle/AB12CDE/insurance"],
    ["DELETE", "/v1/compliance/AB12CDE"],
    ["PUT", "/v1/openapi.json"],
    ["POST", "/health"],
    // Every /v1 route the app has, the data routes too (decision 047).
    ["DELETE", "/v1/data/imports/7/rejects"],
  ])("answers %s %s with 405 and an Allow header", async (method, path) => {
    const service = await start();
    const key = await service.createKey("standard");
    const response = await call(service, path, { key, method });
    expect(response.headers.get("Allow")).toBe("GET, HEAD");
    await expectProblem(response, 405, "METHOD_NOT_ALLOWED");
  });

  it("answers HEAD like GET, without a body", async () => {
    const service = await start();
    const key = await service.createKey("standard");
    const response = await call(service, "/v1/compliance/AB12CDE", {
      key,
      method: "HEAD",
    });
    expect(response.status).toBe(200);
    expectMeteredHeaders(response, 120);
    expect(await response.text()).toBe("");
  });

  it("answers 500 without internals when the store fails, and logs the cause with the request id", async () => {
    const logger = memoryLogger();
    const service = await start({
      logger,
      wrapStore: (store) => ({
        ...store,
        findVehicle: () => Promise.reject(new Error(LEAKY_MESSAGE)),
        findInsurance: () => Promise.reject(new Error(LEAKY_MESSAGE)),
      }),
    });
    const key = await service.createKey("standard");
    const response = await call(service, "/v1/vehicle/AB12CDE/insurance", {
      key,
    });
    expectMeteredHeaders(response, 120);
    const text = await response.clone().text();
    for (const secret of [
      "SQLITE",
      "SELECT",
      "vehicles",
      "/work",
      ".ts",
      "at ",
    ])
      expect(text).not.toContain(secret);
    const problem = await expectProblem(response, 500, "INTERNAL");
    expect(problem.detail).toMatch(/retry later/i);
    const logged = logger.events.find((event) => event.level === "error");
    expect(logged?.requestId).toBe(problem.requestId);
    expect(String(logged?.error)).toContain("no such column");
  });

  it("answers 500 with the rate-limit headers, counted per address, when the key cannot be checked", async () => {
    const service = await start({
      wrapStore: (store) => ({
        ...store,
        findKeyByHash: () => Promise.reject(new Error(LEAKY_MESSAGE)),
      }),
    });
    const response = await call(service, "/v1/compliance/AB12CDE", {
      key: "vics_some-key",
    });
    expectMeteredHeaders(response, UNAUTHENTICATED_LIMIT);
    expect(response.headers.get("X-RateLimit-Remaining")).toBe(
      String(UNAUTHENTICATED_LIMIT - 1),
    );
    const problem = await expectProblem(response, 500, "INTERNAL");
    expect(JSON.stringify(problem)).not.toContain("SQLITE");
  });
});

describe("request ids and the access log", () => {
  it("keeps a plain inbound X-Request-Id and replaces an unsafe one", async () => {
    const service = await start();
    const kept = await call(service, "/nope", {
      headers: { "X-Request-Id": "proxy-123.abc_DEF" },
    });
    expect(kept.headers.get("X-Request-Id")).toBe("proxy-123.abc_DEF");
    for (const unsafe of ["has spaces", "a".repeat(65), "<script>"]) {
      const replaced = await call(service, "/nope", {
        headers: { "X-Request-Id": unsafe },
      });
      expect(replaced.headers.get("X-Request-Id")).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it("logs one line per request with method, route, status, time and id, the registration only as a keyed hash, never the key", async () => {
    const logger = memoryLogger();
    const service = await start({ logger });
    const key = await service.createKey("standard");
    const response = await call(service, "/v1/compliance/FN19OUT", { key });
    await call(service, "/v1/compliance/FN19OUT", { key: `${key}-wrong` });
    await call(service, "/v1/vehicle/FN19OUT/unknown", { key });
    expect(logger.events).toHaveLength(3);
    expect(logger.events[0]).toMatchObject({
      level: "info",
      service: "service",
      msg: "request",
      method: "GET",
      route: "/v1/compliance/:registration",
      registration: registrationHasher(TEST_LOG_HASH_KEY)("FN19OUT"),
      status: 200,
      requestId: response.headers.get("X-Request-Id"),
    });
    expect(logger.events[0]?.registration).toMatch(/^[0-9a-f]{12}$/);
    expect(new Date(String(logger.events[0]?.time)).toISOString()).toBe(
      logger.events[0]?.time,
    );
    expect(typeof logger.events[0]?.durationMs).toBe("number");
    // Turned away by the key check before the route ran: still the route's template.
    expect(logger.events[1]).toMatchObject({
      route: "/v1/compliance/:registration",
      status: 401,
    });
    expect(logger.events[2]).toMatchObject({ route: "*", status: 404 });
    expect(logger.events[2]).not.toHaveProperty("registration");
    const logged = JSON.stringify(logger.events);
    expect(logged).not.toContain(key);
    expect(logged).not.toContain("FN19OUT");
  });

  it("does not log health probes at info level, only at debug", async () => {
    const quiet = memoryLogger();
    const service = await start({ logger: quiet });
    await call(service, "/health");
    await call(service, "/health");
    expect(quiet.events).toEqual([]);

    const verbose = memoryLogger("debug");
    const probed = await start({ logger: verbose });
    await call(probed, "/health");
    expect(verbose.events).toEqual([
      expect.objectContaining({
        level: "debug",
        route: "/health",
        status: 200,
      }),
    ]);
  });
});

describe("GET /health", () => {
  it("answers ok without a key, outside the rate limits", async () => {
    const service = await start();
    for (let i = 0; i < 40; i++) {
      const response = await call(service, "/health");
      expect(response.status).toBe(200);
      expect(response.headers.get("X-RateLimit-Limit")).toBeNull();
      expect(await response.json()).toEqual({ status: "ok" });
    }
    // Forty health checks did not use up the address's allowance.
    expect((await call(service, "/v1/compliance/AB12CDE")).status).toBe(401);
  });
});
