import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { serverTimeouts } from "@vics/shared/server/server-timeouts";
import {
  SLOW_REQUEST_DEADLINE_MS,
  trickleBody,
  trickleHeaders,
} from "@vics/shared/testing/slow-client";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { memoryLogger } from "@vics/shared/testing/memory-logger";
import { createTestService, type TestService } from "../testing.ts";

/**
 * Slow clients over a real socket, one per route: a body that trickles in and never ends,
 * and headers that never end. The server gives up at its request timeout (index.ts uses
 * serverTimeouts(): 30 s; here 1 s, so the test is quick) with Node's 408, or answers at once
 * where the route does not read a body; it stays up and logs no error. Each case fails if
 * it is neither answered nor cut off within SLOW_REQUEST_DEADLINE_MS.
 */

const REQUEST_TIMEOUT_MS = 1_000;
let service: TestService;
let log: ReturnType<typeof memoryLogger>;
let server: ServerType;
let port: number;
let key: string;

beforeAll(async () => {
  log = memoryLogger("info");
  service = await createTestService({ sandbox: false, logger: log });
  key = await service.createKey("internal");
  server = serve({
    fetch: service.app.fetch,
    port: 0,
    hostname: "127.0.0.1",
    serverOptions: serverTimeouts(REQUEST_TIMEOUT_MS),
  });
  await once(server, "listening");
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  if ("closeAllConnections" in server) server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await service.close();
});

// Each case is judged by its own log lines.
beforeEach(() => {
  log.events.length = 0;
});

async function expectStillServing() {
  const health = await fetch(`http://127.0.0.1:${port}/health`);
  expect(health.status).toBe(200);
  const check = await fetch(
    `http://127.0.0.1:${port}/v1/vehicle/AB12CDE/insurance`,
    { headers: { "X-API-Key": key } },
  );
  expect(check.status).toBe(200);
  expect(log.events.filter((event) => event.level === "error")).toEqual([]);
}

describe("a request body that trickles in and never ends", () => {
  it.each([
    ["POST", "/v1/vehicle/bulk-insurance", [408]],
    ["POST", "/v1/vehicle/bulk-compliance", [408]],
    // The routes that read no body answer without waiting for it.
    ["GET", "/v1/vehicle/AB12CDE/insurance", [200]],
    ["GET", "/v1/compliance/AB12CDE", [200]],
    ["GET", "/v1/openapi.json", [200]],
    ["POST", "/v1/vehicle/AB12CDE/insurance", [405]],
    ["POST", "/v1/unknown", [404]],
  ])(
    "%s %s: answered (%j) or cut off, and the service stays up",
    async (method, path, statuses) => {
      const answer = await trickleBody({
        port,
        method,
        path,
        headers: { "Content-Type": "application/json", "X-API-Key": key },
        start: '{"registrations":[',
        chunk: '"AB12CDE",',
        everyMs: 100,
      });
      expect(statuses).toContain(answer.status);
      await expectStillServing();
    },
    SLOW_REQUEST_DEADLINE_MS + 5_000,
  );

  it("a bulk check cut off mid-body is logged as the client's 400, not as an error", async () => {
    await trickleBody({
      port,
      method: "POST",
      path: "/v1/vehicle/bulk-insurance",
      headers: { "Content-Type": "application/json", "X-API-Key": key },
      start: '{"registrations":[',
      chunk: '"AB12CDE",',
      everyMs: 100,
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
    expect(log.events.filter((event) => event.level === "error")).toEqual([]);
  });
});

describe("request headers that trickle in and never end", () => {
  it(
    "are cut off with a 408, and the service stays up",
    async () => {
      const answer = await trickleHeaders({
        port,
        requestLine: "GET /v1/compliance/AB12CDE HTTP/1.1",
        everyMs: 100,
      });
      expect(answer.status).toBe(408);
      await expectStillServing();
    },
    SLOW_REQUEST_DEADLINE_MS + 5_000,
  );
});
