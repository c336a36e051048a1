/**
 * `@vics/server-kit/metrics`: each server's Prometheus metrics (prom-client), served on a
 * listener of their own (METRICS_HOST:METRICS_PORT), never on the public one: Node's process
 * metrics, and per request its count and duration by method, route template and status, and the
 * requests in flight. A label holds a route as registered (`/v1/vehicle/:registration/insurance`),
 * never a path, so no registration, email or key can reach one.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
} from "prom-client";

/** What the access log tells the metrics of each request. */
export interface RequestMetrics {
  started(): void;
  finished(
    method: string,
    route: string,
    status: number,
    seconds: number,
  ): void;
}

export interface ServerMetrics {
  registry: Registry;
  requests: RequestMetrics;
}

/** Seconds: from a cached answer's milliseconds to the upstream timeout's 10 s and beyond. */
const DURATION_BUCKETS = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30,
];

/** A registry of its own for `server` (service or proxy), its every series labelled with it. */
export function createServerMetrics(server: string): ServerMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ server });
  collectDefaultMetrics({ register: registry });
  const labelNames = ["method", "route", "status"] as const;
  const total = new Counter({
    name: "http_requests_total",
    help: "Requests answered, by method, route template and status.",
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time from a request's arrival to its answer, by method, route template and status.",
    labelNames,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const inFlight = new Gauge({
    name: "http_requests_in_flight",
    help: "Requests arrived and not yet answered.",
    registers: [registry],
  });
  return {
    registry,
    requests: {
      started: () => inFlight.inc(),
      finished(method, route, status, seconds) {
        inFlight.dec();
        const labels = { method, route, status: String(status) };
        total.inc(labels);
        duration.observe(labels, seconds);
      },
    },
  };
}

/**
 * The metrics listener: GET /metrics answers the registry in Prometheus's text format; anything
 * else is a 404. Resolves once it listens, with its port (METRICS_PORT=0 takes a free one).
 */
export async function serveMetrics(
  registry: Registry,
  host: string,
  port: number,
): Promise<{ server: Server; port: number }> {
  const server = createServer((request, response) => {
    if (request.method !== "GET" || request.url !== "/metrics") {
      response
        .writeHead(404, { "content-type": "text/plain" })
        .end("Not found\n");
      return;
    }
    registry.metrics().then(
      (text) =>
        response
          .writeHead(200, { "content-type": registry.contentType })
          .end(text),
      (error: unknown) =>
        response
          .writeHead(500, { "content-type": "text/plain" })
          .end(`Cannot collect the metrics: ${String(error)}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return { server, port: (server.address() as AddressInfo).port };
}

/** What a server's index.ts holds of its metrics: told of requests, closed on the way out. */
export interface OpenMetrics {
  /** Undefined when METRICS_PORT is unset: nothing is measured. */
  requests?: RequestMetrics;
  close(): Promise<void>;
}

/**
 * `server`'s metrics and their listener when `listen` is given (METRICS_HOST, METRICS_PORT);
 * nothing otherwise. Refuses, naming the address, when it cannot listen: a scraper that finds
 * nothing there should not be the first to notice.
 */
export async function openMetrics(
  server: string,
  listen: { host: string; port: number } | undefined,
  logger: { info(message: string, fields?: Record<string, unknown>): void },
): Promise<OpenMetrics> {
  if (listen === undefined) return { close: async () => {} };
  const metrics = createServerMetrics(server);
  let served;
  try {
    served = await serveMetrics(metrics.registry, listen.host, listen.port);
  } catch (error) {
    throw new Error(
      `The metrics cannot listen on ${listen.host}:${listen.port}: ${(error as Error).message}; set METRICS_PORT to another port, or leave it unset`,
      { cause: error },
    );
  }
  const host = listen.host.includes(":") ? `[${listen.host}]` : listen.host;
  logger.info("metrics listening", {
    url: `http://${host}:${served.port}/metrics`,
  });
  return {
    requests: metrics.requests,
    close: () =>
      new Promise((resolve) => {
        served.server.close(() => resolve());
        served.server.closeAllConnections();
      }),
  };
}
