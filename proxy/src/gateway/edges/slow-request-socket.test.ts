import {
  type LoopbackServer,
  serveOnLoopback,
} from "@vics/server-kit/testing/loopback-server";
import { slowClientTests } from "@vics/server-kit/testing/slow-client";
import { createTestService, type TestService } from "@vics/service/testing";
import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import { createTestProxy } from "../../testing/index.ts";

/**
 * Slow clients over a real socket, one per route, through the proxy wired to the real service:
 * a body that trickles in and never ends, and headers that never end. The proxy gives up at
 * its request timeout (index.ts uses serverTimeouts(): 30 s; here 1 s, so the test is quick)
 * with Node's 408, or answers at once where the route reads no body; it stays up, logs no
 * error, and sends nothing upstream for a body it never got.
 */

let service: TestService;
let proxy: ReturnType<typeof createTestProxy>;
let server: LoopbackServer;
let upstreamCalls = 0;
let callsBefore = 0;

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
  server = await serveOnLoopback(proxy.app.fetch, { requestTimeoutMs: 1_000 });
});

afterAll(async () => {
  await server.close();
  await service.close();
});

// Each case is judged by its own log lines and upstream calls.
beforeEach(() => {
  proxy.log.clear();
  callsBefore = upstreamCalls;
});

const BULK_STATUSES = [408];
// Answered without reading the body; where the proxy refuses any body on a route that
// takes none, it says so (413) before reading it.
const NO_BODY_STATUSES = [200, 413];

slowClientTests({
  port: () => server.port,
  bodies: [
    ["POST", "/api/v1/vehicle/bulk-insurance", BULK_STATUSES],
    ["POST", "/api/v1/vehicle/bulk-compliance", BULK_STATUSES],
    ["GET", "/api/v1/vehicle/AB12CDE/insurance", NO_BODY_STATUSES],
    ["GET", "/api/v1/compliance/AB12CDE", NO_BODY_STATUSES],
    ["GET", "/api/v1/openapi.json", NO_BODY_STATUSES],
    ["POST", "/api/v1/compliance/AB12CDE", [405, 413]],
    ["POST", "/api/v1/unknown", [404, 413]],
  ],
  requestLine: "GET /api/v1/compliance/AB12CDE HTTP/1.1",
  afterBody(answer) {
    // A body never ended is never sent upstream, whether the 408 was read or lost to the cut.
    if (answer.status === 408 || answer.status === null)
      expect(upstreamCalls).toBe(callsBefore);
  },
  async expectStillServing() {
    const check = await fetch(`${server.base}/api/v1/compliance/AB12CDE`);
    expect(check.status).toBe(200);
    expect(
      proxy.log.entries.filter((entry) => entry.level === "error"),
    ).toEqual([]);
  },
});
