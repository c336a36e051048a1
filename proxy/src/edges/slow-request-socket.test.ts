import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { serverTimeouts } from "@vics/shared/server/server-timeouts";
import {
  SLOW_REQUEST_DEADLINE_MS,
  trickleBody,
  trickleHeaders,
} from "@vics/shared/testing/slow-client";
import { createTestService, type TestService } from "@vics/service/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestProxy } from "../test-support.ts";

/**
 * Slow clients over a real socket, one per route, through the proxy wired to the real service:
 * a body that trickles in and never ends, and headers that never end. The proxy gives up at
 * its request timeout (index.ts uses serverTimeouts(): 30 s; here 1 s, so the test is quick)
 * with Node's 408, or answers at once where the route reads no body; it stays up, logs no
 * error, and sends nothing upstream for a body it never got. Each case fails if it is neither
 * answered nor cut off within SLOW_REQUEST_DEADLINE_MS.
 */

const REQUEST_TIMEOUT_MS = 1_000;
let service: TestService;
let proxy: ReturnType<typeof createTestProxy>;
let server: ServerType;
let port: number;
let upstreamCalls = 0;

beforeAll(async () => {
  service = await createTestService({ sandbox: false });
  proxy = createTestProxy({
    apiKey: await service.createKey("internal"),
    upstreamUrl: "http://service.internal",
    fetch: (input, init) => {
      upstreamCalls++;
      return service.app.fetch(new Request(input, init));
    },
  });
  server = serve({
    fetch: proxy.app.fetch,
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
  proxy.log.entries.length = 0;
});

async function expectStillServing() {
  const check = await fetch(
    `http://127.0.0.1:${port}/api/v1/compliance/AB12CDE`,
  );
  expect(check.status).toBe(200);
  expect(proxy.log.entries.filter((entry) => entry.level === "error")).toEqual(
    [],
  );
}

const BULK_STATUSES = [408];
// Answered without reading the body; where the proxy refuses any body on a route that
// takes none, it says so (413) before reading it.
const NO_BODY_STATUSES = [200, 413];

describe("a request body that trickles in and never ends", () => {
  it.each([
    ["POST", "/api/v1/vehicle/bulk-insurance", BULK_STATUSES],
    ["POST", "/api/v1/vehicle/bulk-compliance", BULK_STATUSES],
    ["GET", "/api/v1/vehicle/AB12CDE/insurance", NO_BODY_STATUSES],
    ["GET", "/api/v1/compliance/AB12CDE", NO_BODY_STATUSES],
    ["GET", "/api/v1/openapi.json", NO_BODY_STATUSES],
    ["POST", "/api/v1/compliance/AB12CDE", [405, 413]],
    ["POST", "/api/v1/unknown", [404, 413]],
  ])(
    "%s %s: answered (%j) or cut off, and the proxy stays up",
    async (method, path, statuses) => {
      const callsBefore = upstreamCalls;
      const answer = await trickleBody({
        port,
        method,
        path,
        headers: { "Content-Type": "application/json" },
        start: '{"registrations":[',
        chunk: '"AB12CDE",',
        everyMs: 100,
      });
      expect(statuses).toContain(answer.status);
      if (answer.status === 408) expect(upstreamCalls).toBe(callsBefore);
      await expectStillServing();
    },
    SLOW_REQUEST_DEADLINE_MS + 5_000,
  );
});

describe("request headers that trickle in and never end", () => {
  it(
    "are cut off with a 408, and the proxy stays up",
    async () => {
      const answer = await trickleHeaders({
        port,
        requestLine: "GET /api/v1/compliance/AB12CDE HTTP/1.1",
        everyMs: 100,
      });
      expect(answer.status).toBe(408);
      await expectStillServing();
    },
    SLOW_REQUEST_DEADLINE_MS + 5_000,
  );
});
