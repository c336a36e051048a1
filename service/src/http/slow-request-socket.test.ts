import {
  type LoopbackServer,
  serveOnLoopback,
} from "@vics/server-kit/testing/loopback-server";
import { memoryLogger } from "@vics/server-kit/testing/memory-logger";
import {
  slowClientTests,
  trickleBody,
} from "@vics/server-kit/testing/slow-client";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { createTestService, type TestService } from "../testing/index.ts";

/**
 * Slow clients over a real socket, one per route: a body that trickles in and never ends,
 * and headers that never end. The server gives up at its request timeout (index.ts uses
 * serverTimeouts(): 30 s; here 1 s, so the test is quick) with Node's 408, or answers at once
 * where the route does not read a body; it stays up and logs no error.
 */

const log = memoryLogger("info");
let service: TestService;
let server: LoopbackServer;
let key: string;

beforeAll(async () => {
  service = await createTestService({ sandbox: false, logger: log });
  key = await service.createKey("internal");
  server = await serveOnLoopback(service.app.fetch, {
    requestTimeoutMs: 1_000,
  });
});

afterAll(async () => {
  await server.close();
  await service.close();
});

// Each case is judged by its own log lines.
beforeEach(() => {
  log.clear();
});

const errors = () => log.events.filter((event) => event.level === "error");

slowClientTests({
  port: () => server.port,
  headers: () => ({ "X-API-Key": key }),
  bodies: [
    ["POST", "/v1/vehicle/bulk-insurance", [408]],
    ["POST", "/v1/vehicle/bulk-compliance", [408]],
    // The routes that read no body answer without waiting for it.
    ["GET", "/v1/vehicle/AB12CDE/insurance", [200]],
    ["GET", "/v1/compliance/AB12CDE", [200]],
    ["GET", "/v1/openapi.json", [200]],
    ["POST", "/v1/vehicle/AB12CDE/insurance", [405]],
    ["POST", "/v1/unknown", [404]],
  ],
  requestLine: "GET /v1/compliance/AB12CDE HTTP/1.1",
  async expectStillServing() {
    expect((await fetch(`${server.base}/health`)).status).toBe(200);
    const check = await fetch(`${server.base}/v1/vehicle/AB12CDE/insurance`, {
      headers: { "X-API-Key": key },
    });
    expect(check.status).toBe(200);
    expect(errors()).toEqual([]);
  },
});

it("a bulk check cut off mid-body is logged as the client's 400, not as an error", async () => {
  await trickleBody({
    port: server.port,
    method: "POST",
    path: "/v1/vehicle/bulk-insurance",
    headers: { "Content-Type": "application/json", "X-API-Key": key },
  });
  // The access line is written once the handler has given up on the body.
  await expect
    .poll(() =>
      log.events.filter(
        (event) =>
          event.msg === "request" &&
          event.route === "/v1/vehicle/bulk-insurance",
      ),
    )
    .toContainEqual(expect.objectContaining({ status: 400 }));
  expect(errors()).toEqual([]);
});
