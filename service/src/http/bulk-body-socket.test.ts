import { once } from "node:events";
import { type IncomingMessage, request } from "node:http";
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { ProblemSchema } from "@vics/shared";
import { afterEach, describe, expect, it } from "vitest";
import { BULK_CHECKS } from "../test-support/bulk-checks.ts";
import { freshServices } from "../test-support/services.ts";

/**
 * Over a real socket, as the service runs: the 413 comes back while the client is still
 * sending, so the service decided before the whole body arrived (it never does arrive).
 */

const start = freshServices();
const servers: ServerType[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    if ("closeAllConnections" in server) server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function listening() {
  const service = await start();
  const key = await service.createKey("standard");
  const server = serve({
    fetch: service.app.fetch,
    port: 0,
    hostname: "127.0.0.1",
  });
  servers.push(server);
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return { port, key };
}

async function readJson(response: IncomingMessage): Promise<unknown> {
  let text = "";
  for await (const chunk of response) text += String(chunk);
  return JSON.parse(text);
}

describe.each(BULK_CHECKS)("POST $path over a socket", ({ path }) => {
  it("a chunked body: 413 after 64 KiB, while the body is still being sent", async () => {
    const { port, key } = await listening();
    const client = request({
      host: "127.0.0.1",
      port,
      path,
      method: "POST",
      headers: { "Content-Type": "application/json", "X-API-Key": key },
    });
    client.on("error", () => {}); // the server may drop the socket after answering
    const answered = once(client, "response") as Promise<[IncomingMessage]>;
    // 80 KiB and never the end of the body.
    for (let i = 0; i < 10; i++) client.write("x".repeat(8 * 1024));
    const [response] = await answered;
    expect(client.getHeader("Content-Length")).toBeUndefined();
    expect(client.writableEnded).toBe(false);
    expect(response.statusCode).toBe(413);
    expect(response.headers["x-ratelimit-remaining"]).toBe("119");
    expect(ProblemSchema.parse(await readJson(response)).code).toBe(
      "PAYLOAD_TOO_LARGE",
    );
    client.destroy();
  });

  it("a declared Content-Length over 64 KiB: 413 before any of the body is sent", async () => {
    const { port, key } = await listening();
    const client = request({
      host: "127.0.0.1",
      port,
      path,
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "Content-Length": String(1024 * 1024),
        "X-API-Key": key,
      },
    });
    client.on("error", () => {});
    const answered = once(client, "response") as Promise<[IncomingMessage]>;
    client.flushHeaders();
    const [response] = await answered;
    expect(client.writableEnded).toBe(false);
    expect(response.statusCode).toBe(413);
    expect(ProblemSchema.parse(await readJson(response)).code).toBe(
      "PAYLOAD_TOO_LARGE",
    );
    client.destroy();
  });
});
