import { once } from "node:events";
import { type IncomingMessage, request } from "node:http";
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { ProblemSchema } from "@vics/shared";
import { afterEach, describe, expect, it } from "vitest";
import { createTestProxy, fakeUpstream } from "../test-support.ts";

/** The proxy as it runs, on a real socket: the 413 comes back while the browser still sends. */

const servers: ServerType[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    if ("closeAllConnections" in server) server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe("a chunked bulk body over 64 KiB, on a real socket", () => {
  it("gets the proxy's 413 before the body ends, and nothing goes upstream", async () => {
    const upstream = fakeUpstream();
    const { app } = createTestProxy({ fetch: upstream.fetch });
    const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
    servers.push(server);
    await once(server, "listening");
    const { port } = server.address() as AddressInfo;

    const client = request({
      host: "127.0.0.1",
      port,
      path: "/api/v1/vehicle/bulk-insurance",
      method: "POST",
      headers: { "Content-Type": "application/json" },
    });
    client.on("error", () => {}); // the server may drop the socket after answering
    const answered = once(client, "response") as Promise<[IncomingMessage]>;
    for (let i = 0; i < 10; i++) client.write("x".repeat(8 * 1024));
    const [response] = await answered;
    expect(client.getHeader("Content-Length")).toBeUndefined();
    expect(client.writableEnded).toBe(false);
    expect(response.statusCode).toBe(413);
    let text = "";
    for await (const chunk of response) text += String(chunk);
    expect(ProblemSchema.parse(JSON.parse(text)).code).toBe(
      "PAYLOAD_TOO_LARGE",
    );
    expect(upstream.requests).toHaveLength(0);
    client.destroy();
  });
});
