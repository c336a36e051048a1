// A stop while no collector takes the spans held: close() says so, never fails and waits at most
// STOP_EXPORT_MS, so a server stops as cleanly and as soon as it would have (its stop logs the
// reason). A file of its own: startTracing sets the process's tracer.
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Socket } from "node:net";
import { trace } from "@opentelemetry/api";
import { afterEach, expect, it } from "vitest";
import { STOP_EXPORT_MS, startTracing } from "./tracing.ts";

const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(
    servers.splice(0).map((server) => {
      server.close();
      return once(server, "close");
    }),
  );
});

/** A collector on 127.0.0.1 that answers every export with `status`, or never when undefined. */
async function collector(status: number | undefined): Promise<string> {
  const server = createServer((request, response) => {
    request.resume();
    if (status !== undefined) response.writeHead(status).end();
  });
  server.on("connection", (socket) => sockets.push(socket));
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`;
}

/** Traces one request to `tracesUrl`, then closes: what close() says. */
async function closedAfterOneRequest(tracesUrl: string) {
  const tracing = await startTracing({
    tracesUrl,
    serviceName: "vics-service",
    sampler: "always_on",
    ratio: 1,
  });
  let recorded = false;
  const fetch = tracing.traceRequests((_request: Request) => {
    recorded = trace.getActiveSpan()?.isRecording() === true;
    return new Response("ok");
  });
  await fetch(new Request("http://127.0.0.1/v1/x"));
  expect(recorded).toBe(true);
  // Held, not yet sent (a batch waits 5 seconds): the stop sends it.
  return tracing.close();
}

it("says why the spans held at the stop were not sent when the collector refuses them", async () => {
  const { unsent } = await closedAfterOneRequest(await collector(400));
  expect(unsent).toEqual(expect.any(String));
  expect(unsent).not.toBe("");
  expect(unsent).not.toMatch(/not sent within/);
});

it("waits for a collector that never answers no longer than its bound, not the exporter's 10 s", async () => {
  // Were close() to wait for the exporter, its reason would be the exporter's time-out.
  expect(await closedAfterOneRequest(await collector(undefined))).toEqual({
    unsent: `not sent within ${STOP_EXPORT_MS / 1000} s`,
  });
}, 30_000);
