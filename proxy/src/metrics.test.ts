import { Registry } from "prom-client";
import { memoryLimitStore } from "@vics/server-kit/memory-rate-limiter";
import { seriesValue } from "@vics/server-kit/testing/metric-labels";
import { describe, expect, it } from "vitest";
import { createUserLimiter } from "./team/limits/user-limits.ts";
import {
  auditWriteMetrics,
  countingUserRefusals,
  upstreamGauges,
  type ProxyRefusal,
} from "./metrics.ts";

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
