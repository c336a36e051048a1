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
import type { DeliveryStore } from "./team/store/delivery-store.ts";
import type { WatchStore } from "./team/store/watch-store.ts";
import type { WatchJobs } from "./team/watch/jobs/watch-jobs.ts";

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
  /** The re-checks' gauges (when they run): the sweeps, the job queues, pending deliveries. */
  watchJobs(deps: JobMetricsDeps): void;
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
    watchJobs: (deps) => jobGauges(registry, deps),
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
  const gauge = (
    name: string,
    help: string,
    states: readonly (keyof UpstreamPoolStats)[],
  ) =>
    new Gauge({
      name,
      help,
      labelNames: ["state"],
      registers: [registry],
      collect() {
        const now = stats();
        for (const state of states) this.set({ state }, now[state]);
      },
    });
  gauge(
    "vics_upstream_pool_requests",
    "Requests to the service in the proxy's pool: running, pending (not yet sent), queued.",
    REQUEST_STATES,
  );
  gauge(
    "vics_upstream_pool_connections",
    "Connections to the service in the proxy's pool: connected, and of them free.",
    CONNECTION_STATES,
  );
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

export interface JobMetricsDeps {
  store: Pick<WatchStore, "lastWatchRun"> &
    Pick<DeliveryStore, "pendingDeliveryCounts">;
  jobs: Pick<WatchJobs, "queuedSweeps">;
  now: () => number;
}

/** What one scrape reads of the store and the job engine, once for all the gauges below. */
interface JobReading {
  lastStarted?: number;
  lastFinished?: number;
  sweeps?: { depth: number; oldestAt?: number };
  deliveries: Awaited<ReturnType<DeliveryStore["pendingDeliveryCounts"]>>;
}

/**
 * The re-checks' gauges, read from the store and the job engine when scraped (one read for
 * every gauge of a scrape; a read that fails leaves them as they were, never a failed scrape):
 * - `vics_sweep_last_started_timestamp_seconds`: the newest daily sweep's start;
 *   `vics_sweep_last_finished_timestamp_seconds`: the end of the newest that finished (a
 *   failed one did not). Every replica reads the same runs (PostgreSQL), hence max() in alerts.
 * - `vics_job_queue_depth{queue}` and `vics_job_oldest_age_seconds{queue}`: "sweep", the sweeps
 *   asked for and not started; "delivery", the deliveries due now and how late the oldest is.
 * - `vics_deliveries_pending{channel,endpoint}`: every pending delivery, by channel and
 *   endpoint: a webhook's id, or "smtp" for every email (never an address).
 */
export function jobGauges(registry: Registry, deps: JobMetricsDeps): void {
  let reading:
    { at: number; value: Promise<JobReading | undefined> } | undefined;
  const read = () => {
    const at = deps.now();
    // The gauges of one scrape are collected together: one read serves them all.
    if (!reading || at - reading.at > 1_000)
      reading = { at, value: readJobs(deps, at).catch(() => undefined) };
    return reading.value;
  };
  const seconds = (ms: number) => ms / 1000;
  // No series before the first daily sweep; a read that fails keeps the last value.
  const timestamp = (
    name: string,
    help: string,
    pick: (reading: JobReading) => number | undefined,
  ) => {
    let last: number | undefined;
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        const now = await read();
        if (now) last = pick(now);
        if (last === undefined) this.remove();
        else this.set(seconds(last));
      },
    });
  };
  timestamp(
    "vics_sweep_last_started_timestamp_seconds",
    "When the newest daily sweep of the watched fleets started (Unix seconds).",
    (reading) => reading.lastStarted,
  );
  timestamp(
    "vics_sweep_last_finished_timestamp_seconds",
    "When the newest daily sweep that finished (not failed) ended (Unix seconds).",
    (reading) => reading.lastFinished,
  );
  new Gauge({
    name: "vics_job_queue_depth",
    help: "Jobs waiting: sweeps asked for and not started, deliveries due now.",
    labelNames: ["queue"],
    registers: [registry],
    async collect() {
      const now = await read();
      if (!now) return;
      if (now.sweeps) this.set({ queue: "sweep" }, now.sweeps.depth);
      this.set(
        { queue: "delivery" },
        now.deliveries.reduce((sum, count) => sum + count.due, 0),
      );
    },
  });
  new Gauge({
    name: "vics_job_oldest_age_seconds",
    help: "How long the oldest waiting job has waited: a sweep since asked for, a delivery since due.",
    labelNames: ["queue"],
    registers: [registry],
    async collect() {
      const now = await read();
      if (!now) return;
      const age = (since: number | undefined) =>
        since === undefined ? 0 : Math.max(0, seconds(deps.now() - since));
      if (now.sweeps) this.set({ queue: "sweep" }, age(now.sweeps.oldestAt));
      const dues = now.deliveries.flatMap((count) =>
        count.oldestDueAt === undefined ? [] : [count.oldestDueAt],
      );
      this.set(
        { queue: "delivery" },
        age(dues.length > 0 ? Math.min(...dues) : undefined),
      );
    },
  });
  new Gauge({
    name: "vics_deliveries_pending",
    help: "Pending alert deliveries, by channel and endpoint (a webhook's id; smtp for email).",
    labelNames: ["channel", "endpoint"],
    registers: [registry],
    async collect() {
      const now = await read();
      if (!now) return;
      // An endpoint whose deliveries have all gone shows no series.
      this.reset();
      for (const count of now.deliveries)
        this.set(
          {
            channel: count.channel,
            endpoint:
              count.webhookId === undefined ? "smtp" : String(count.webhookId),
          },
          count.pending,
        );
    },
  });
}

async function readJobs(
  deps: JobMetricsDeps,
  now: number,
): Promise<JobReading> {
  const [started, finished, sweeps, deliveries] = await Promise.all([
    deps.store.lastWatchRun("daily"),
    deps.store.lastWatchRun("daily", "finished"),
    deps.jobs.queuedSweeps?.(),
    deps.store.pendingDeliveryCounts(now),
  ]);
  return {
    lastStarted: started?.startedAt,
    lastFinished: finished?.finishedAt ?? undefined,
    sweeps,
    deliveries,
  };
}
