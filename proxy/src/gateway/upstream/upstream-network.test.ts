import { once } from "node:events";
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { TEST_API_KEY, createTestProxy } from "../../testing/index.ts";
import { insuranceRecord } from "../../testing/fault-answers.ts";

/** Real loopback upstreams, so socket behaviour (abort, keep-alive) is observed, not assumed. */

const servers: Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function startUpstream(
  handle: (request: IncomingMessage, response: ServerResponse) => void,
) {
  const server = createServer(handle);
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}` };
}

describe("against a real upstream server", () => {
  it("aborts the upstream request when it is too slow (504)", async () => {
    let seenKey: string | undefined;
    let resolveClosed!: () => void;
    const upstreamClosed = new Promise<void>(
      (resolve) => (resolveClosed = resolve),
    );
    const upstream = await startUpstream((request, response) => {
      seenKey = request.headers["x-api-key"] as string;
      // Never answers; 'close' fires when the proxy gives up and drops the socket.
      response.on("close", resolveClosed);
    });
    const { app } = createTestProxy({
      fetch: globalThis.fetch,
      upstreamUrl: upstream.url,
      timeoutMs: 50,
    });
    const response = await app.request("/api/v1/compliance/AB12CDE");
    expect(response.status).toBe(504);
    await upstreamClosed;
    expect(seenKey).toBe(TEST_API_KEY);
  });

  it("reuses keep-alive connections for sequential requests", async () => {
    let connections = 0;
    let requests = 0;
    const upstream = await startUpstream((_request, response) => {
      requests++;
      response.setHeader("Content-Type", "application/json");
      response.end(JSON.stringify(insuranceRecord("AB12CDE")));
    });
    upstream.server.on("connection", () => connections++);
    const { app } = createTestProxy({
      fetch: globalThis.fetch,
      upstreamUrl: upstream.url,
    });
    for (let i = 0; i < 10; i++) {
      const response = await app.request("/api/v1/vehicle/AB12CDE/insurance");
      expect(await response.json()).toEqual(insuranceRecord("AB12CDE"));
    }
    expect(requests).toBe(10);
    // Without keep-alive this would be 10. undici frees a socket a moment after the
    // body is read, so a request sent at once may open a second one; never more.
    expect(connections).toBeLessThanOrEqual(2);
  });

  it("answers 502 when nothing listens on the upstream port", async () => {
    const upstream = await startUpstream(() => {});
    const url = upstream.url;
    await new Promise((resolve) => upstream.server.close(resolve));
    servers.splice(servers.indexOf(upstream.server), 1);
    const { app, log } = createTestProxy({
      fetch: globalThis.fetch,
      upstreamUrl: url,
    });
    const response = await app.request("/api/v1/compliance/AB12CDE");
    expect(response.status).toBe(502);
    expect(log.entries).toContainEqual(
      expect.objectContaining({
        message: "upstream unreachable",
        fields: expect.objectContaining({ reason: "ECONNREFUSED" }),
      }),
    );
  });
});
