// The service's Prometheus metrics, as an operator reaches them: a real process started with
// METRICS_PORT, scraped on its own listener after real requests.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { paths, REFERENCE_REGISTRATIONS } from "@vics/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
