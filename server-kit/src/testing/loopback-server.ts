/**
 * `@vics/server-kit/testing/loopback-server`: an app served on a real socket on 127.0.0.1, for
 * the tests of the service and the proxy that need one (body limits, slow clients, sockets
 * closed mid-request). Test support, never imported by an app.
 */
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { afterEach } from "vitest";
import { serverTimeouts } from "../server-timeouts.ts";

type Fetch = (request: Request) => Response | Promise<Response>;

export interface LoopbackServer {
  port: number;
  /** http://127.0.0.1:port, no trailing slash. */
  base: string;
  /** Cuts every connection still open, then waits for the server to close. */
  close(): Promise<void>;
}

/**
 * `fetch` on a free port. With `requestTimeoutMs`, under the servers' own time limits
 * (serverTimeouts) made that short, so a slow client is cut off within a test's time.
 */
export async function serveOnLoopback(
  fetch: Fetch,
  options: { requestTimeoutMs?: number } = {},
): Promise<LoopbackServer> {
  const server = serve({
    fetch,
    port: 0,
    hostname: "127.0.0.1",
    ...(options.requestTimeoutMs !== undefined && {
      serverOptions: serverTimeouts(options.requestTimeoutMs),
    }),
  });
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    port,
    base: `http://127.0.0.1:${port}`,
    async close() {
      if ("closeAllConnections" in server) server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** For a test file: serves apps as serveOnLoopback does, and closes them after each test. */
export function loopbackServers() {
  const open: LoopbackServer[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((server) => server.close()));
  });
  return async (fetch: Fetch, options?: { requestTimeoutMs?: number }) => {
    const server = await serveOnLoopback(fetch, options);
    open.push(server);
    return server;
  };
}
