// The refresh ahead of the sweep on pg-boss, on a real PostgreSQL and pg-boss's TestClock:
// three proxies send the watched vehicles to the real service once, two hours before the daily
// sweep, and record one run; a refresh that fails is retried with backoff and recorded once, on
// its last try; a lead of 0 takes away the schedule an earlier start made.
import { afterEach, describe, expect, it } from "vitest";
import { TestClock } from "pg-boss";
import {
  createTestService,
  registerDown,
  type TestService,
} from "@vics/service/testing";
import { silentLogger } from "@vics/server-kit/logger";
import { memoryLogger } from "@vics/server-kit/testing/memory-logger";
import { sharedPostgres } from "@vics/server-kit/testing/postgres-server";
import type { ProxyStore } from "../../store/proxy-store.ts";
import { openSqliteProxyStore } from "../../store/sqlite/sqlite-proxy-store.ts";
import {
  plates,
  refreshThrough,
  vehicles,
  type Sent,
} from "../../../testing/register-refresh.ts";
import { openPgPool } from "@vics/server-kit/postgres";
import {
  installJobsSchema,
  JOBS_SCHEMA,
} from "../../store/postgres/jobs-schema.ts";
import { pgBossJobs, REFRESH_QUEUE, SWEEP_QUEUE } from "./pg-boss-jobs.ts";
import { refreshHandler, type RefreshHandler } from "./refresh-job.ts";
import type { JobEngine } from "./watch-jobs.ts";

const server = sharedPostgres();
let databases = 0;

const running: JobEngine[] = [];
let store: ProxyStore;
let service: TestService | undefined;
afterEach(async () => {
  await Promise.all(running.splice(0).map((jobs) => jobs.stop()));
  await store?.close();
  await service?.close();
  service = undefined;
});

async function freshDatabase() {
  const url = await server().createDatabase(`refresh_${++databases}`);
  await installJobsSchema(url);
  store = openSqliteProxyStore({ path: ":memory:", auditRetentionDays: 30 });
  return url;
}

async function startProxy(
  url: string,
  clock: TestClock,
  by: number,
  refresh: RefreshHandler,
  refreshLeadMinutes = 120,
) {
  const jobs = pgBossJobs({
    connectionString: url,
    store,
    handler: async () => ({
      vehicles: 0,
      unknown: 0,
      opened: [],
      status: "finished",
    }),
    refresh,
    refreshLeadMinutes,
    refreshRetryDelaySeconds: 60,
    logger: silentLogger,
    clock,
    instanceName: `proxy ${by}`,
  });
  await jobs.start();
  running.push(jobs);
  return jobs;
}

async function query<T>(url: string, text: string): Promise<T[]> {
  const pool = openPgPool({ url, applicationName: "refresh test", max: 1 });
  try {
    return (await pool.query(text)).rows as T[];
  } finally {
    await pool.end();
  }
}

/** pg-boss's schedules: the queue and its cron. */
const schedules = async (url: string) =>
  (
    await query<{ name: string; cron: string }>(
      url,
      `SELECT name, cron FROM ${JOBS_SCHEMA}.schedule ORDER BY name`,
    )
  ).map((row) => [row.name, row.cron]);

/** Refresh jobs ever sent. */
const refreshJobs = async (url: string) =>
  Number(
    (
      await query<{ count: string }>(
        url,
        `SELECT count(*) FROM ${JOBS_SCHEMA}.job WHERE name = '${REFRESH_QUEUE}'`,
      )
    )[0]?.count,
  );

/** Lets the clock run from `from` (an instant) for `minutes`, a minute at a time. */
async function live(clock: TestClock, from: string, minutes: number) {
  await clock.setTime(from);
  for (let minute = 0; minute < minutes; minute += 1) await clock.tick(60_000);
}

describe("the refresh ahead of the sweep on pg-boss", () => {
  it("three processes send the watched vehicles to the service once, two hours before the sweep, and record one run", async () => {
    const url = await freshDatabase();
    service = await createTestService({
      sandbox: false,
      fleetSize: 20,
      sources: registerDown(),
    });
    const key = await service.createKey("internal", "re-checks");
    await store.createFleet(
      "Vans",
      { columns: [], vehicles: vehicles(plates(1_500)) },
      { email: "ann@example.org", at: Date.now() },
    );
    const clock = new TestClock("2026-11-20T03:00:00Z");
    const sent: Sent[] = [];
    const at: string[] = [];
    for (let by = 1; by <= 3; by += 1) {
      const handle = refreshHandler({
        store,
        logger: silentLogger,
        now: () => clock.now(),
        refresh: refreshThrough(service, key, sent),
      });
      await startProxy(url, clock, by, async (signal) => {
        at.push(new Date(clock.now()).toISOString().slice(0, 16));
        return handle(signal);
      });
    }
    await live(clock, "2026-11-20T03:50:00Z", 20);
    await expect.poll(() => at).toEqual(["2026-11-20T04:00"]);
    expect(sent.map((s) => s.registrations.length)).toEqual([1_000, 500]);
    expect(sent.every((s) => s.key === key)).toBe(true);
    // Fresh until the sweep it is ahead of, on pg-boss's clock.
    expect(sent.map((s) => s.until)).toEqual([
      "2026-11-20T06:00:00.000Z",
      "2026-11-20T06:00:00.000Z",
    ]);
    await expect
      .poll(async () =>
        (await store.watchRuns(5)).map((run) => [run.kind, run.outcome]),
      )
      .toEqual([
        [
          "refresh",
          "Queued ahead of the sweep: 1,500 vehicles sent, 1,500 register requests queued, 0 already fresh; the Sources page shows the requests made and any left for the quota.",
        ],
      ]);
  }, 120_000);

  it("retries a refresh that fails, then gives it up, saying why each time and recording only the last try", async () => {
    const url = await freshDatabase();
    await store.createFleet(
      "Vans",
      { columns: [], vehicles: vehicles(plates(3)) },
      { email: "ann@example.org", at: Date.now() },
    );
    const clock = new TestClock("2026-11-20T03:00:00Z");
    const tries: string[] = [];
    const logger = memoryLogger();
    const handle = refreshHandler({
      store,
      logger: silentLogger,
      now: () => clock.now(),
      refresh: async () => {
        tries.push(new Date(clock.now()).toISOString());
        throw new Error("the vehicle service could not be reached");
      },
    });
    const jobs = pgBossJobs({
      connectionString: url,
      store,
      handler: async () => ({
        vehicles: 0,
        unknown: 0,
        opened: [],
        status: "finished",
      }),
      refresh: handle,
      refreshLeadMinutes: 120,
      logger,
      clock,
    });
    await jobs.start();
    running.push(jobs);
    await live(clock, "2026-11-20T03:59:00Z", 30);
    await expect.poll(() => tries.length).toBe(3);
    // pg-boss's backoff: each retry at least its delay after the try before.
    const gaps = tries
      .slice(1)
      .map((time, i) => Date.parse(time) - Date.parse(tries[i]!));
    expect(gaps.every((gap) => gap >= 60_000)).toBe(true);
    expect(
      logger.events.filter((event) =>
        String(event.msg).startsWith(
          "The refresh of the watched vehicles' register facts failed",
        ),
      ).length,
    ).toBe(3);
    // Each try logged; one run on the admin's list, the last try's.
    await expect
      .poll(async () =>
        (await store.watchRuns(10)).map((run) => [
          run.kind,
          run.outcome,
          new Date(run.startedAt).toISOString(),
        ]),
      )
      .toEqual([
        [
          "refresh",
          "failed: the vehicle service could not be reached",
          tries[2],
        ],
      ]);
  }, 120_000);

  it("a lead of 0 takes away the refresh an earlier start scheduled", async () => {
    const url = await freshDatabase();
    const clock = new TestClock("2026-11-20T03:00:00Z");
    let refreshes = 0;
    const refresh: RefreshHandler = async () => {
      refreshes += 1;
      return { on: true, sent: 0, queued: 0, fresh: 0, invalid: 0 };
    };
    const first = await startProxy(url, clock, 1, refresh);
    expect(await schedules(url)).toEqual([
      [REFRESH_QUEUE, "0 4 * * *"],
      [SWEEP_QUEUE, "0 6 * * *"],
    ]);
    await first.stop();
    running.splice(0);
    await startProxy(url, clock, 2, refresh, 0);
    // The daily sweep's schedule stays; the refresh's is gone, and none is sent.
    expect(await schedules(url)).toEqual([[SWEEP_QUEUE, "0 6 * * *"]]);
    await live(clock, "2026-11-20T03:50:00Z", 20);
    expect(await refreshJobs(url)).toBe(0);
    expect(refreshes).toBe(0);
  }, 120_000);
});
