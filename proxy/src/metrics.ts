/**
 * The proxy's own Prometheus metrics, beside the kit's (server-kit's metrics.ts): whether it
 * answers ready, the requests its rate limits refuse by kind, its pool of connections to the
 * service, and what it sees of PostgreSQL and Redis. Made only when METRICS_PORT is set;
 * otherwise nothing here runs, and the code that counts is given no callback.
 */
import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import {
  dependencyMetrics,
  readyGauge,
  refusalCounter,
  type DependencyMetrics,
  type RefusalCount,
} from "@vics/server-kit/metrics";
import type { ReadinessChecks } from "@vics/server-kit/readiness";
import type { UpstreamPoolStats } from "./gateway/upstream/upstream-pool.ts";
import type { UserLimiter } from "./team/limits/user-limits.ts";
import type { BatchObserver } from "./team/store/audit-group-commit.ts";

/** The proxy's limits: a person's own look-ups (decision 034), and the sign-in throttle. */
export const PROXY_REFUSALS = ["user", "sign_in"] as const;
export type ProxyRefusal = (typeof PROXY_REFUSALS)[number];

export interface ProxyMetrics {
  dependencies: DependencyMetrics;
  /** For the sign-in throttle (ProxyDeps.onSignInThrottled). */
  signInThrottled(): void;
  /** The same limiter, telling vics_rate_limit_refusals_total of each refusal. */
  countingUserRefusals(limiter: UserLimiter): UserLimiter;
  /** vics_ready, from the checks GET /ready asks (app.ts's readinessChecks). */
  watchReadiness(checks: ReadinessChecks): void;
  /** The upstream pool's gauges, read from `stats` at scrape time. */
  watchUpstream(stats: () => UpstreamPoolStats): void;
  /** For the store's audit group commit: each batch's time, and its failures. */
  auditWrites: BatchObserver;
}

export function proxyMetrics(registry: Registry): ProxyMetrics {
  const refused = refusalCounter(registry, PROXY_REFUSALS);
  return {
    dependencies: dependencyMetrics(registry),
    signInThrottled: () => refused("sign_in"),
    countingUserRefusals: (limiter) => countingUserRefusals(limiter, refused),
    watchReadiness: (checks) => readyGauge(registry, checks),
    watchUpstream: (stats) => upstreamGauges(registry, stats),
    auditWrites: auditWriteMetrics(registry),
  };
}

/** `limiter` as it was, telling `refused` of every request over a person's own limit. */
export function countingUserRefusals(
  limiter: UserLimiter,
  refused: RefusalCount<ProxyRefusal>,
): UserLimiter {
  return {
    limits: limiter.limits,
    async consume(role, userId, cost) {
      const decision = await limiter.consume(role, userId, cost);
      if (!decision.allowed) refused("user");
      return decision;
    },
  };
}

const REQUEST_STATES = ["running", "pending", "queued"] as const;
const CONNECTION_STATES = ["connected", "free"] as const;

/**
 * `vics_upstream_pool_requests{state}` and `vics_upstream_pool_connections{state}`: undici's
 * counts of the pool to the service, read when scraped.
 */
export function upstreamGauges(
  registry: Registry,
  stats: () => UpstreamPoolStats,
): void {
  new Gauge({
    name: "vics_upstream_pool_requests",
    help: "Requests to the service in the proxy's pool: running, pending (not yet sent), queued.",
    labelNames: ["state"],
    registers: [registry],
    collect() {
      const now = stats();
      for (const state of REQUEST_STATES) this.set({ state }, now[state]);
    },
  });
  new Gauge({
    name: "vics_upstream_pool_connections",
    help: "Connections to the service in the proxy's pool: connected, and of them free.",
    labelNames: ["state"],
    registers: [registry],
    collect() {
      const now = stats();
      for (const state of CONNECTION_STATES) this.set({ state }, now[state]);
    },
  });
}

/** Seconds: from one SQLite transaction's sync to a PostgreSQL round trip under load. */
const AUDIT_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5,
];

/**
 * `vics_audit_write_duration_seconds`: one group commit of audit events (its transaction or
 * statement), and `vics_audit_write_failures_total`: batches of which nothing was committed,
 * each a check refused rather than answered unrecorded.
 */
export function auditWriteMetrics(registry: Registry): BatchObserver {
  const duration = new Histogram({
    name: "vics_audit_write_duration_seconds",
    help: "Time to commit one batch of audit events (one group commit).",
    buckets: AUDIT_BUCKETS,
    registers: [registry],
  });
  const failures = new Counter({
    name: "vics_audit_write_failures_total",
    help: "Batches of audit events of which nothing was committed.",
    registers: [registry],
  });
  return {
    written: (seconds) => duration.observe(seconds),
    failed: () => failures.inc(),
  };
}
