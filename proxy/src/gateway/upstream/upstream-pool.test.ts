import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { createUpstreamPool } from "./upstream-pool.ts";

/**
 * A kept-alive connection closed by the other side just as a request goes out on it, as
 * nginx does to its idle connections when it reloads: the upstream here answers the first
 * request on a connection and drops the connection when a second one arrives on it.
 */

let server: Server | undefined;
let closePool: (() => Promise<void>) | undefined;

afterEach(async () => {
  await closePool?.();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

async function upstreamDroppingReusedConnections() {
  const seen: string[] = [];
  const answered = new WeakSet<object>();
  server = createServer((request, response) => {
    seen.push(request.method!);
    if (answered.has(request.socket)) {
      request.socket.destroy();
      return;
    }
    answered.add(request.socket);
    request.resume();
    response.setHeader("Content-Type", "application/json");
    response.end('{"ok":true}');
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  const pool = createUpstreamPool(`http://127.0.0.1:${port}`);
  closePool = pool.close;
  const send = (
    method: "GET" | "POST",
    signal: AbortSignal = AbortSignal.timeout(5_000),
  ) =>
    pool.send(`http://127.0.0.1:${port}/api/v1/compliance/AB12CDE`, {
      method,
      headers: { "content-type": "application/json" },
      body: method === "POST" ? '{"registrations":["AB12CDE"]}' : undefined,
      signal,
    });
  return { seen, send };
}

describe("the upstream pool, when a kept-alive connection is closed under a request", () => {
  it("sends a GET once more, on a new connection, and returns its answer", async () => {
    const { seen, send } = await upstreamDroppingReusedConnections();
    expect((await send("GET")).status).toBe(200);
    await sleep(20); // undici frees the connection a moment after the body is read
    const reply = await send("GET");
    expect(reply.status).toBe(200);
    expect(reply.body).toBe('{"ok":true}');
    expect(seen).toEqual(["GET", "GET", "GET"]);
  });

  it("never sends a POST twice: the failure is the caller's to report", async () => {
    const { seen, send } = await upstreamDroppingReusedConnections();
    expect((await send("POST")).status).toBe(200);
    await sleep(20);
    await expect(send("POST")).rejects.toThrow();
    expect(seen).toEqual(["POST", "POST"]);
  });

  it("tries a GET at most twice when every connection fails", async () => {
    const { seen, send } = await upstreamDroppingReusedConnections();
    server!.removeAllListeners("request");
    server!.on("request", (request) => {
      seen.push(request.method!);
      request.socket.destroy();
    });
    await expect(send("GET")).rejects.toThrow();
    expect(seen).toEqual(["GET", "GET"]);
  });

  it("never sends a GET again once its headers came: the cut body is the caller's failure", async () => {
    const { seen, send } = await upstreamDroppingReusedConnections();
    server!.removeAllListeners("request");
    server!.on("request", (request, response) => {
      seen.push(request.method!);
      response.writeHead(200, {
        "Content-Type": "application/json",
        "Content-Length": "100",
      });
      response.write('{"ok":', () => request.socket.destroy());
    });
    await expect(send("GET")).rejects.toThrow();
    expect(seen).toEqual(["GET"]);
  });

  it("never sends an aborted GET again", async () => {
    const { seen, send } = await upstreamDroppingReusedConnections();
    expect((await send("GET")).status).toBe(200);
    await sleep(20);
    const controller = new AbortController();
    server!.removeAllListeners("request");
    server!.on("request", (request) => {
      seen.push(request.method!);
      // The caller gives up (its time-out), then the connection closes under the request.
      controller.abort();
      setImmediate(() => request.socket.destroy());
    });
    await expect(send("GET", controller.signal)).rejects.toThrow();
    await sleep(50);
    expect(seen).toEqual(["GET", "GET"]);
  });
});

describe("an answer's headers as the pool gives them", () => {
  it("are read as Headers#get reads them: any case, repeated values joined, null when absent", async () => {
    const { replyHeaders } = await import("./upstream-pool.ts");
    const headers = replyHeaders({
      "content-type": "application/json",
      "x-many": ["Accept", "Origin"],
    });
    const native = new Headers([
      ["Content-Type", "application/json"],
      ["X-Many", "Accept"],
      ["X-Many", "Origin"],
    ]);
    for (const name of ["Content-Type", "content-type", "X-MANY", "X-Missing"])
      expect(headers.get(name), name).toBe(native.get(name));
  });
});

describe("the upstream pool's stats, for the metrics", () => {
  it("count a request running while the service has not answered, and its connection kept after", async () => {
    let answer: (() => void) | undefined;
    const arrived = new Promise<void>((resolve) => {
      server = createServer((request, response) => {
        request.resume();
        answer = () => response.end("{}");
        resolve();
      });
    });
    server!.listen(0, "127.0.0.1");
    await once(server!, "listening");
    const { port } = server!.address() as AddressInfo;
    const pool = createUpstreamPool(`http://127.0.0.1:${port}`);
    closePool = pool.close;
    expect(pool.stats()).toMatchObject({ running: 0, connected: 0 });
    const sent = pool.send(`http://127.0.0.1:${port}/health`, {
      method: "GET",
      headers: {},
      signal: AbortSignal.timeout(5_000),
    });
    await arrived;
    expect(pool.stats()).toMatchObject({
      running: 1,
      pending: 0,
      queued: 0,
      connected: 1,
      free: 0,
    });
    answer!();
    expect((await sent).status).toBe(200);
    // Kept alive for the next request (undici frees it once it has drained: not asserted).
    expect(pool.stats()).toMatchObject({ running: 0, connected: 1 });
  });
});
