import { Registry } from "prom-client";
import { memoryLimitStore } from "@vics/server-kit/memory-rate-limiter";
import {
  expectOnlyAllowedLabels,
  seriesValue,
} from "@vics/server-kit/testing/metric-labels";
import { describe, expect, it } from "vitest";
import { createUserLimiter } from "./team/limits/user-limits.ts";
import {
  auditWriteMetrics,
  countingUserRefusals,
  jobGauges,
  upstreamGauges,
  type JobMetricsDeps,
  type ProxyRefusal,
} from "./metrics.ts";
import type { PendingDeliveryCount } from "./team/store/delivery-store.ts";
import type { WatchRun } from "./team/store/watch-store.ts";

describe("countingUserRefusals", () => {
  it("counts each request over a person's own limit, and passes every decision on as it was", async () => {
    const counted: ProxyRefusal[] = [];
    const limiter = countingUserRefusals(
      createUserLimiter({ staff: 3, fleet: 10, admin: 10 }, memoryLimitStore),
      (kind) => counted.push(kind),
    );
    const user = `user-${Math.random()}`;
    expect((await limiter.consume("staff", user, 2)).allowed).toBe(true);
    expect(await limiter.consume("staff", user, 2)).toMatchObject({
      allowed: false,
      lookups: 3,
      lookupsLeft: 1,
    });
    expect((await limiter.consume("staff", user, 1)).allowed).toBe(true);
    expect(counted).toEqual(["user"]);
    expect(limiter.limits.staff).toBe(3);
  });
});

describe("upstreamGauges", () => {
  it("read the pool's requests and connections at each scrape", async () => {
    const registry = new Registry();
    let stats = { running: 3, pending: 1, queued: 2, connected: 5, free: 2 };
    upstreamGauges(registry, () => stats);
    const read = async (name: string, state: string) =>
      seriesValue(await registry.metrics(), name, { state });
    expect(await read("vics_upstream_pool_requests", "running")).toBe(3);
    expect(await read("vics_upstream_pool_requests", "pending")).toBe(1);
    expect(await read("vics_upstream_pool_requests", "queued")).toBe(2);
    expect(await read("vics_upstream_pool_connections", "connected")).toBe(5);
    expect(await read("vics_upstream_pool_connections", "free")).toBe(2);
    stats = { ...stats, running: 0, free: 5 };
    expect(await read("vics_upstream_pool_requests", "running")).toBe(0);
    expect(await read("vics_upstream_pool_connections", "free")).toBe(5);
  });
});

describe("auditWriteMetrics", () => {
  it("times each batch written, and counts those that failed", async () => {
    const registry = new Registry();
    const observer = auditWriteMetrics(registry);
    observer.written(0.003);
    observer.written(0.2);
    observer.failed();
    const text = await registry.metrics();
    expect(seriesValue(text, "vics_audit_write_duration_seconds_count")).toBe(
      2,
    );
    expect(
      seriesValue(text, "vics_audit_write_duration_seconds_bucket", {
        le: "0.005",
      }),
    ).toBe(1);
    expect(seriesValue(text, "vics_audit_write_failures_total")).toBe(1);
  });
});

describe("jobGauges", () => {
  const T = Date.parse("2026-11-27T06:00:00Z");
  const run = (startedAt: number, finishedAt: number | null): WatchRun => ({
    id: 1,
    kind: "daily",
    startedAt,
    finishedAt,
    outcome: finishedAt === null ? null : "finished",
    vehicles: 0,
    unknown: 0,
    alerts: 0,
  });

  function harness() {
    const state = {
      now: T,
      newest: undefined as WatchRun | undefined,
      finished: undefined as WatchRun | undefined,
      deliveries: [] as PendingDeliveryCount[],
      sweeps: { depth: 0 } as { depth: number; oldestAt?: number },
      down: false,
    };
    const deps: JobMetricsDeps = {
      now: () => state.now,
      store: {
        lastWatchRun: async (_kind, outcome) => {
          if (state.down) throw new Error("ECONNREFUSED");
          return outcome === "finished" ? state.finished : state.newest;
        },
        pendingDeliveryCounts: async () => {
          if (state.down) throw new Error("ECONNREFUSED");
          return state.deliveries;
        },
      },
      jobs: { queuedSweeps: async () => state.sweeps },
    };
    const registry = new Registry();
    jobGauges(registry, deps);
    // Each scrape a few seconds after the last: the read of one scrape is not the next one's.
    const scrape = async () => {
      state.now += 5_000;
      return registry.metrics();
    };
    return { state, scrape };
  }

  it("shows no sweep before the first, then the newest start and the newest finished end", async () => {
    const { state, scrape } = harness();
    const before = await scrape();
    expect(before).not.toMatch(/^vics_sweep_last_\w+ /m);
    expect(
      seriesValue(before, "vics_job_queue_depth", { queue: "sweep" }),
    ).toBe(0);
    state.finished = run(T - 86_400_000, T - 86_000_000);
    state.newest = run(T, null);
    const during = await scrape();
    expect(
      seriesValue(during, "vics_sweep_last_started_timestamp_seconds"),
    ).toBe(T / 1000);
    expect(
      seriesValue(during, "vics_sweep_last_finished_timestamp_seconds"),
    ).toBe((T - 86_000_000) / 1000);
  });

  it("shows the sweeps waiting and the deliveries due, how long the oldest of each has waited, and the pending deliveries by endpoint, never an address", async () => {
    const { state, scrape } = harness();
    state.sweeps = { depth: 2, oldestAt: T - 60_000 };
    state.deliveries = [
      { channel: "email", pending: 5, due: 3, oldestDueAt: T - 120_000 },
      { channel: "webhook", webhookId: 7, pending: 4, due: 1, oldestDueAt: T },
      { channel: "webhook", webhookId: 9, pending: 2, due: 0 },
    ];
    const text = await scrape();
    expectOnlyAllowedLabels(text);
    const value = (name: string, labels: Record<string, string>) =>
      seriesValue(text, name, labels);
    expect(value("vics_job_queue_depth", { queue: "sweep" })).toBe(2);
    expect(value("vics_job_oldest_age_seconds", { queue: "sweep" })).toBe(65);
    expect(value("vics_job_queue_depth", { queue: "delivery" })).toBe(4);
    expect(value("vics_job_oldest_age_seconds", { queue: "delivery" })).toBe(
      125,
    );
    expect(
      value("vics_deliveries_pending", { channel: "email", endpoint: "smtp" }),
    ).toBe(5);
    expect(
      value("vics_deliveries_pending", { channel: "webhook", endpoint: "7" }),
    ).toBe(4);
    expect(
      value("vics_deliveries_pending", { channel: "webhook", endpoint: "9" }),
    ).toBe(2);

    // The webhook's deliveries all sent: its series goes.
    state.deliveries = state.deliveries.slice(0, 2);
    const after = await scrape();
    expect(after).not.toMatch(/endpoint="9"/);
    expect(
      seriesValue(after, "vics_job_oldest_age_seconds", { queue: "sweep" }),
    ).toBe(70);
  });

  it("keeps the last values, and answers the scrape, while the store cannot be read", async () => {
    const { state, scrape } = harness();
    state.newest = run(T, T + 60_000);
    state.finished = state.newest;
    state.deliveries = [
      { channel: "webhook", webhookId: 3, pending: 1, due: 1, oldestDueAt: T },
    ];
    await scrape();
    state.down = true;
    const text = await scrape();
    expect(seriesValue(text, "vics_sweep_last_started_timestamp_seconds")).toBe(
      T / 1000,
    );
    expect(
      seriesValue(text, "vics_deliveries_pending", {
        channel: "webhook",
        endpoint: "3",
      }),
    ).toBe(1);
  });
});
