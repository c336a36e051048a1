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
import type { Logger } from "./logger.ts";
import type { PgPool } from "./postgres.ts";
import { checkReady, type ReadinessChecks } from "./readiness.ts";

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
  /** Where the server adds metrics of its own; undefined when METRICS_PORT is unset. */
  registry?: Registry;
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
  logger: Pick<Logger, "info">,
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
    registry: metrics.registry,
    close: () =>
      new Promise((resolve) => {
        served.server.close(() => resolve());
        served.server.closeAllConnections();
      }),
  };
}

/**
 * `vics_ready`: 1 when the replica's GET /ready would answer 200, else 0, asked at scrape time
 * of the same checks (a ping of the database and of the limits' Redis).
 */
export function readyGauge(registry: Registry, checks: ReadinessChecks): void {
  new Gauge({
    name: "vics_ready",
    help: "1 when the replica answers ready (its /ready would answer 200), else 0.",
    registers: [registry],
    async collect() {
      this.set(
        await checkReady(checks).then(
          () => 1,
          () => 0,
        ),
      );
    },
  });
}

/** Told of one request refused for a rate limit, by the limit's name (a fixed set per server). */
export type RefusalCount<Kind extends string> = (kind: Kind) => void;

/**
 * `vics_rate_limit_refusals_total{kind}`, each of `kinds` shown from 0 so that a rate over it
 * exists before the first refusal.
 */
export function refusalCounter<Kind extends string>(
  registry: Registry,
  kinds: readonly Kind[],
): RefusalCount<Kind> {
  const counter = new Counter({
    name: "vics_rate_limit_refusals_total",
    help: "Requests refused for a rate limit, by the limit's kind.",
    labelNames: ["kind"],
    registers: [registry],
  });
  for (const kind of kinds) counter.inc({ kind }, 0);
  return (kind) => counter.inc({ kind });
}

/** A pg pool's connections, as `vics_db_pool_connections{state}` shows them. */
type PoolState = "total" | "idle" | "waiting";

/**
 * What a server sees of its PostgreSQL and Redis: `vics_postgres_errors_total` and
 * `vics_redis_errors_total`, and `vics_db_pool_connections{state}` over the pools it watches.
 * `redisError` is given to the limit store (limit-store.ts); `watchPgPool` to the store, which
 * calls it with its pool once opened.
 */
export interface DependencyMetrics {
  redisError(): void;
  watchPgPool(pool: PgPool): void;
}

export function dependencyMetrics(registry: Registry): DependencyMetrics {
  const redis = new Counter({
    name: "vics_redis_errors_total",
    help: "Errors seen of Redis: the client's error events and failed commands.",
    registers: [registry],
  });
  const postgres = new Counter({
    name: "vics_postgres_errors_total",
    help: "Errors seen of PostgreSQL: a pool's error events, connections refused and failed statements.",
    registers: [registry],
  });
  const pools = new Set<PgPool>();
  let watched = false;
  const counts: Record<PoolState, (pool: PgPool) => number> = {
    total: (pool) => pool.totalCount,
    idle: (pool) => pool.idleCount,
    waiting: (pool) => pool.waitingCount,
  };
  new Gauge({
    name: "vics_db_pool_connections",
    help: "PostgreSQL pool connections: total open, idle, and requests waiting for one.",
    labelNames: ["state"],
    registers: [registry],
    collect() {
      // No series on SQLite, where no pool is ever watched.
      if (!watched) return;
      for (const pool of pools) if (pool.ended) pools.delete(pool);
      for (const [state, count] of Object.entries(counts))
        this.set(
          { state },
          [...pools].reduce((sum, pool) => sum + count(pool), 0),
        );
    },
  });
  const postgresError = () => postgres.inc();
  return {
    redisError: () => redis.inc(),
    watchPgPool(pool) {
      watched = true;
      pools.add(pool);
      countPgErrors(pool, postgresError);
    },
  };
}

/**
 * Tells `count` of every error `pool` sees: its error events (an idle connection lost), a
 * connection it cannot open (pool.query and pool.connect alike), and a statement that fails on
 * any of its connections, whether called with a callback (pool.query's way) or a promise.
 * What failed before this call (a store's set-up, which tries and refuses on purpose) is not.
 */
export function countPgErrors(pool: PgPool, countAny: () => void): void {
  // A constraint the app relies on (a duplicate fleet name, an email already invited) is an
  // answer (a 409), not a fault of PostgreSQL's: class 23 is left out, or an alert would page
  // on a user's typo.
  const count = (error?: unknown) => {
    if (!isConstraintViolation(error)) countAny();
  };
  pool.on("error", count);
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
  (pool as { connect: unknown }).connect = (...args: unknown[]) =>
    counted(connect, args, count);
  // Each connection as it is first handed out, those opened before this call included.
  const counting = new WeakSet<object>();
  pool.on("acquire", (client) => {
    if (counting.has(client)) return;
    counting.add(client);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (...args: unknown[]) =>
      counted(query, args, count);
  });
}

/** SQLSTATE class 23, integrity constraint violation (unique, foreign key, check, not null). */
function isConstraintViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === "string" && code.startsWith("23");
}

/** Calls `call`, telling `count` when its callback is given an error or its promise rejects. */
function counted(
  call: (...args: unknown[]) => unknown,
  args: unknown[],
  count: (error: unknown) => void,
): unknown {
  const last = args.at(-1);
  if (typeof last === "function") {
    const callback = last as (error: unknown, ...rest: unknown[]) => unknown;
    return call(...args.slice(0, -1), (error: unknown, ...rest: unknown[]) => {
      if (error) count(error);
      return callback(error, ...rest);
    });
  }
  const result = call(...args);
  // The caller's promise, still theirs to handle; this branch only counts.
  if (result instanceof Promise) result.catch(count);
  return result;
}
