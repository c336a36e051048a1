// The service's Prometheus metrics, as an operator reaches them: a real process started with
// METRICS_PORT, scraped on its own listener after real requests.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  paths,
  REFERENCE_REGISTRATIONS,
  UNAUTHENTICATED_LIMIT,
} from "@vics/shared";
import { createRateLimiter } from "@vics/server-kit/rate-limiter";
import { memoryLimitStore } from "@vics/server-kit/memory-rate-limiter";
import {
  expectOnlyAllowedLabels,
  seriesValue,
} from "@vics/server-kit/testing/metric-labels";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWrongKeyBudget } from "./http/wrong-key-budget.ts";
import { countingRefusals, type ServiceRefusal } from "./metrics.ts";
import { createKeyWithCli, startService } from "./testing/service-process.ts";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "vics-metrics-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `http_requests_total`'s series, each as its labels and count. */
function requestCounts(text: string) {
  return text
    .split("\n")
    .filter((line) => line.startsWith("http_requests_total{"))
    .map((line) => {
      const [, labels, value] = /^[^{]+\{(.*)\} (\S+)$/.exec(line)!;
      return {
        ...Object.fromEntries(
          [...labels!.matchAll(/(\w+)="([^"]*)"/g)].map(([, k, v]) => [k, v]),
        ),
        count: Number(value),
      };
    });
}

describe("node src/index.ts with METRICS_PORT", { timeout: 120_000 }, () => {
  it("serves its metrics on a listener of its own, route templates in the labels and never a plate or key", async () => {
    const databasePath = join(dir, "vics.sqlite");
    // The first start creates and seeds the database; the key is made in it after.
    const service = startService(databasePath, { METRICS_PORT: "0" });
    const baseUrl = await service.url;
    const key = await createKeyWithCli(databasePath, "metrics");
    const metricsUrl = String((await service.event("metrics listening")).url);
    expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect(metricsUrl).not.toBe(`${baseUrl}/metrics`);

    const plate = REFERENCE_REGISTRATIONS[0];
    const answered = await fetch(`${baseUrl}${paths.insurance(plate)}`, {
      headers: { "X-API-Key": key },
    });
    // Answered by the check itself (a vehicle's record, or the contract's 404), not refused.
    expect([200, 404]).toContain(answered.status);
    expect((await fetch(`${baseUrl}${paths.insurance(plate)}`)).status).toBe(
      401,
    );
    // The public listener has no metrics.
    const publicMetrics = await fetch(`${baseUrl}/metrics`);
    expect(publicMetrics.status).not.toBe(200);
    expect(await publicMetrics.text()).not.toContain("http_requests_total");
    // The address limit (the "unauthenticated" tier) refuses one request at last.
    let refused = 0;
    for (let i = 0; i <= UNAUTHENTICATED_LIMIT && refused === 0; i++) {
      const answer = await fetch(`${baseUrl}${paths.compliance(plate)}`);
      if (answer.status === 429) refused++;
    }
    expect(refused).toBe(1);

    const text = await (await fetch(metricsUrl)).text();
    const counts = requestCounts(text);
    expect(counts).toContainEqual({
      method: "GET",
      route: "/v1/vehicle/:registration/insurance",
      status: String(answered.status),
      server: "service",
      count: 1,
    });
    expect(counts).toContainEqual({
      method: "GET",
      route: "/v1/vehicle/:registration/insurance",
      status: "401",
      server: "service",
      count: 1,
    });
    // Every label value is a route as registered, a method, a status or the server's name.
    for (const series of counts) {
      expect(series.route).toMatch(/^(\*|(\/[a-z0-9-]*|\/:[a-z]+)+\*?)$/);
      expect(series.method).toMatch(/^[A-Z]+$/);
      expect(series.status).toMatch(/^\d{3}$/);
    }
    for (const secret of [plate, key]) expect(text).not.toContain(secret);
    expectOnlyAllowedLabels(text, [plate, key]);
    const refusals = (kind: ServiceRefusal) =>
      seriesValue(text, "vics_rate_limit_refusals_total", { kind });
    expect([
      refusals("unauthenticated"),
      refusals("plan"),
      refusals("wrong_key"),
    ]).toEqual([1, 0, 0]);
    // SQLite and this process's memory: ready, no errors, and no pool to show.
    expect(seriesValue(text, "vics_ready")).toBe(1);
    expect(seriesValue(text, "vics_redis_errors_total")).toBe(0);
    expect(seriesValue(text, "vics_postgres_errors_total")).toBe(0);
    expect(text).not.toMatch(/^vics_db_pool_connections\{/m);
    expect(text).toMatch(/^http_requests_in_flight\{server="service"\} 0$/m);
    expect(text).toMatch(
      /^process_resident_memory_bytes\{server="service"\} \d+/m,
    );

    service.child.kill("SIGTERM");
    expect((await service.exited).code).toBe(0);
    // Closed with the service.
    await expect(fetch(metricsUrl)).rejects.toThrow();
  });
});

describe("countingRefusals", () => {
  it("counts each limit's refusals by its kind, and passes every decision on as it was", async () => {
    const counted: ServiceRefusal[] = [];
    const { rateLimiter, wrongKeyBudget } = countingRefusals(
      {
        rateLimiter: createRateLimiter(memoryLimitStore),
        wrongKeyBudget: createWrongKeyBudget(1),
      },
      (kind) => counted.push(kind),
    );
    const account = `key:${Math.random()}`;
    const decisions = [];
    // A trial key's plan allows 10 a minute.
    for (let i = 0; i < 11; i++)
      decisions.push(await rateLimiter.consume("trial", account));
    expect(decisions.map((decision) => decision.allowed)).toEqual([
      ...Array<boolean>(10).fill(true),
      false,
    ]);
    expect(decisions[10]).toMatchObject({ limit: 10, remaining: 0 });
    expect((await wrongKeyBudget.consume()).allowed).toBe(true);
    expect((await wrongKeyBudget.consume()).allowed).toBe(false);
    expect(counted).toEqual(["plan", "wrong_key"]);
    await expect(rateLimiter.ping()).resolves.toBeUndefined();
  });
});
