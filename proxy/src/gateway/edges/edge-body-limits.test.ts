import { type IncomingMessage, request as httpRequest } from "node:http";
import { describe, expect, it } from "vitest";
import { CLIENT_HEADER, ProblemSchema } from "@vics/shared";
import { loopbackServers } from "@vics/server-kit/testing/loopback-server";
import {
  builtWebRoot,
  createTestProxy,
  fakeUpstream,
} from "../../testing/index.ts";

/**
 * Body limits on every route. The bulk checks take up to 64 KiB (bulk-body.test.ts
 * and bulk-body-socket.test.ts); the proxy's own routes that take a body declare their limit
 * (edge-body-limits-socket.test.ts holds each); every other request takes none. On a real
 * socket, since a Request object cannot even be made with a GET body.
 */

const serve = loopbackServers();

async function listening() {
  const upstream = fakeUpstream();
  const { proxy } = createTestProxy({
    fetch: upstream.fetch,
    webRoot: builtWebRoot(),
  });
  return { port: (await serve(proxy.fetch)).port, upstream };
}

interface Sent {
  method: string;
  path: string;
  headers?: Record<string, string>;
  /** Written as it is; with `chunked`, without a Content-Length. */
  body?: string;
  chunked?: boolean;
}

function send(port: number, sent: Sent) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const body = sent.body ?? "";
    const request = httpRequest({
      host: "127.0.0.1",
      port,
      method: sent.method,
      path: sent.path,
      headers: {
        [CLIENT_HEADER]: "web",
        ...(sent.chunked
          ? { "Transfer-Encoding": "chunked" }
          : body && { "Content-Length": String(Buffer.byteLength(body)) }),
        ...sent.headers,
      },
    });
    request.on("response", (response: IncomingMessage) => {
      let text = "";
      response.on("data", (chunk: Buffer) => (text += chunk.toString()));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, body: text }),
      );
    });
    // The server may close the connection after refusing, while we still write.
    request.on("error", reject);
    request.end(body);
  });
}

describe("a request that takes no body, sent with one", () => {
  it.each<[string, Sent]>([
    [
      "GET insurance",
      {
        method: "GET",
        path: "/api/v1/vehicle/AB12CDE/insurance",
        body: "x".repeat(10),
      },
    ],
    [
      "GET compliance, chunked",
      {
        method: "GET",
        path: "/api/v1/compliance/AB12CDE",
        body: "{}",
        chunked: true,
      },
    ],
    [
      "GET the OpenAPI document",
      { method: "GET", path: "/api/v1/openapi.json", body: "a=1" },
    ],
    [
      "HEAD compliance",
      { method: "HEAD", path: "/api/v1/compliance/AB12CDE", body: "x" },
    ],
    [
      "DELETE compliance",
      { method: "DELETE", path: "/api/v1/compliance/AB12CDE", body: "x" },
    ],
    [
      "GET an unknown /api path",
      { method: "GET", path: "/api/v1/keys", body: "x" },
    ],
    ["GET the app", { method: "GET", path: "/", body: "x".repeat(256 * 1024) }],
    [
      "GET a deep link",
      { method: "GET", path: "/vehicle/AB12CDE", body: "x", chunked: true },
    ],
    [
      "GET a hashed asset",
      { method: "GET", path: "/assets/index-a1b2c3.js", body: "x" },
    ],
    ["POST to the app", { method: "POST", path: "/", body: "x" }],
    [
      "OPTIONS",
      { method: "OPTIONS", path: "/api/v1/compliance/AB12CDE", body: "x" },
    ],
  ])(
    "%s: 413, before any of it is read, nothing upstream",
    async (_case, sent) => {
      const { port, upstream } = await listening();
      const response = await send(port, sent);
      expect(response.status).toBe(413);
      if (sent.method !== "HEAD")
        expect(ProblemSchema.parse(JSON.parse(response.body))).toMatchObject({
          code: "PAYLOAD_TOO_LARGE",
          detail: expect.stringContaining("takes no request body"),
        });
      expect(upstream.requests).toHaveLength(0);
    },
  );

  it("an empty body declared as such (Content-Length: 0) is no body", async () => {
    const { port, upstream } = await listening();
    const response = await send(port, {
      method: "GET",
      path: "/api/v1/compliance/AB12CDE",
      headers: { "Content-Length": "0" },
    });
    expect(response.status).toBe(200);
    expect(upstream.requests).toHaveLength(1);
    // What went upstream carries no body of the browser's.
    expect(upstream.requests[0]?.body).toBeNull();
  });
});

describe("the bulk checks' limit on the same socket", () => {
  it("64 KiB at most: one byte over is a 413, a body within it goes through", async () => {
    const { port, upstream } = await listening();
    const json = JSON.stringify({ registrations: ["AB12CDE"] });
    const within = await send(port, {
      method: "POST",
      path: "/api/v1/vehicle/bulk-insurance",
      headers: { "Content-Type": "application/json" },
      body: json + " ".repeat(64 * 1024 - json.length),
    });
    expect(within.status).toBe(200);
    const over = await send(port, {
      method: "POST",
      path: "/api/v1/vehicle/bulk-compliance",
      headers: { "Content-Type": "application/json" },
      body: json + " ".repeat(64 * 1024 - json.length + 1),
    });
    expect(over.status).toBe(413);
    expect(upstream.requests).toHaveLength(1);
  });
});

describe("headers", () => {
  it("over Node's 16 KiB of headers: 431 from the server, nothing upstream", async () => {
    const { port, upstream } = await listening();
    const response = await send(port, {
      method: "GET",
      path: "/api/v1/compliance/AB12CDE",
      headers: { "X-Padding": "x".repeat(20 * 1024) },
    });
    expect(response.status).toBe(431);
    expect(upstream.requests).toHaveLength(0);
  });
});
