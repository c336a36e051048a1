// The service's metrics on PostgreSQL, as an operator reaches them: a real process started with
// DATABASE_URL and METRICS_PORT, scraped while PostgreSQL answers and while it is down.
import { sharedPostgres } from "@vics/server-kit/testing/postgres-server";
import {
  expectOnlyAllowedLabels,
  seriesValue,
} from "@vics/server-kit/testing/metric-labels";
import { afterAll, describe, expect, it } from "vitest";
import {
  createKeyWithCli,
  startService,
  type ServiceProcess,
} from "./testing/service-process.ts";

const UNUSED_PATH = "/nonexistent/vics.sqlite";
// The service is killed before the server closes: after-all hooks run last-registered first.
const server = sharedPostgres();
let service: ServiceProcess | undefined;
afterAll(() => {
  service?.child.kill("SIGKILL");
});

describe(
  "node src/index.ts with DATABASE_URL and METRICS_PORT",
  { timeout: 120_000 },
  () => {
    it("shows its pool's connections, ready while PostgreSQL answers, and not ready with its errors counted while it is down", async () => {
      const url = await server().createDatabase("metrics");
      service = startService(UNUSED_PATH, {
        DATABASE_URL: url,
        SEED_SYNTHETIC_FLEET: "true",
        METRICS_PORT: "0",
      });
      const baseUrl = await service.url;
      const metricsUrl = String((await service.event("metrics listening")).url);
      const key = await createKeyWithCli(UNUSED_PATH, "metrics", {
        DATABASE_URL: url,
      });
      const check = () =>
        fetch(`${baseUrl}/v1/vehicle/AB12CDE/insurance`, {
          headers: { "X-API-Key": key },
        });
      const scrape = async () => (await fetch(metricsUrl)).text();

      expect((await check()).status).toBe(200);
      const up = await scrape();
      expectOnlyAllowedLabels(up);
      expect(seriesValue(up, "vics_ready")).toBe(1);
      expect(
        seriesValue(up, "vics_db_pool_connections", { state: "total" }),
      ).toBeGreaterThanOrEqual(1);
      expect(
        seriesValue(up, "vics_db_pool_connections", { state: "waiting" }),
      ).toBe(0);
      expect(seriesValue(up, "vics_postgres_errors_total")).toBe(0);

      await server().stop();
      try {
        // A key looked up before is cached: a new one's lookup reaches the database.
        const unknown = await fetch(`${baseUrl}/v1/vehicle/AB12CDE/insurance`, {
          headers: { "X-API-Key": "vics_live_not_a_key_at_all_0000000000" },
        });
        expect(unknown.status).toBe(503);
        const down = await scrape();
        expect(seriesValue(down, "vics_ready")).toBe(0);
        expect(seriesValue(down, "vics_postgres_errors_total")).toBeGreaterThan(
          0,
        );
      } finally {
        await server().start();
      }
      service.child.kill("SIGTERM");
      expect((await service.exited).code).toBe(0);
    });
  },
);
