// pg-boss on a real PostgreSQL, on pg-boss's own TestClock (shared by every instance, and read
// by PostgreSQL itself): three proxies make one sweep a day, at 06:00 UK time on both sides of
// the clock change; a sweep missed while every process was down runs once when one is back; a
// sweep that keeps failing is retried, then dead-lettered. And as the lesser role the proxy
// works as: it may not make pg-boss's schema, which the owner's setup makes and grants.
import { setTimeout as delay } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { TestClock } from "pg-boss";
import { createHttpFleetClient } from "@vics/fleet";
import { silentLogger } from "@vics/server-kit/logger";
import { memoryLogger } from "@vics/server-kit/testing/memory-logger";
import { sharedPostgres } from "@vics/server-kit/testing/postgres-server";
import { openPostgresProxyStore } from "../../store/postgres/postgres-proxy-store.ts";
import type { ProxyStore } from "../../store/proxy-store.ts";
import { openSqliteProxyStore } from "../../store/sqlite/sqlite-proxy-store.ts";
import type { SweepReport } from "../sweep.ts";
import { openPgPool } from "@vics/server-kit/postgres";
import {
  installJobsSchema,
  JOBS_SCHEMA,
  JOBS_SCHEMA_VERSION,
  jobsSchemaInstalled,
} from "../../store/postgres/jobs-schema.ts";
import { pgBossJobs, SWEEP_DEAD_LETTER } from "./pg-boss-jobs.ts";
import {
  sweepHandler,
  type SweepHandler,
  type SweepRequest,
} from "./sweep-job.ts";
import type { JobEngine } from "./watch-jobs.ts";

const server = sharedPostgres();
/** Real time for each worker's first fetch, which nothing signals, to be over. */
const FIRST_FETCH_MS = 1_000;
let databases = 0;

const running: JobEngine[] = [];
let store: ProxyStore;
afterEach(async () => {
  await Promise.all(running.splice(0).map((jobs) => jobs.stop()));
  await store?.close();
});

const REPORT: SweepReport = {
  vehicles: 0,
  unknown: 0,
  opened: [],
  status: "finished",
};

interface Sweep {
  at: string;
  by: number;
  request: SweepRequest;
}

async function proxies(
  count: number,
  clock: TestClock,
  fail = false,
  /** What each sweep waits for before it finishes. */
  hold?: () => Promise<void>,
  /** Each alert delivery run, told which process runs it. */
  deliver?: (by: number) => Promise<void>,
) {
  const url = await server().createDatabase(`jobs_${++databases}`);
  // pg-boss's schema, as the PostgreSQL store's owner setup makes it before the jobs start.
  await installJobsSchema(url);
  store = openSqliteProxyStore({ path: ":memory:", auditRetentionDays: 30 });
  const sweeps: Sweep[] = [];
  const start = async (by: number) => {
    const handler: SweepHandler = async (request) => {
      sweeps.push({ at: new Date(clock.now()).toISOString(), by, request });
      if (fail) throw new Error("the service is down");
      await hold?.();
      return REPORT;
    };
    const jobs = pgBossJobs({
      connectionString: url,
      store,
      handler,
      ...(deliver && {
        deliver: async () => {
          await deliver(by);
          return { planned: 0, sent: 0, failed: 0 };
        },
      }),
      logger: silentLogger,
      clock,
      instanceName: `proxy ${by}`,
    });
    await jobs.start();
    running.push(jobs);
    return jobs;
  };
  const all = [];
  for (let by = 1; by <= count; by += 1) all.push(await start(by));
  return { url, sweeps, all, start };
}

/** Lets the clock run from `from` (an instant) for `minutes`, as the processes would live it. */
async function live(clock: TestClock, from: string, minutes: number) {
  await clock.setTime(from);
  await clock.tick(minutes * 60_000);
}

describe("the sweeps on pg-boss", () => {
  it("three processes make one sweep a day, at 06:00 UK time across the autumn clock change", async () => {
    const clock = new TestClock("2026-10-23T12:00:00Z");
    const { sweeps } = await proxies(3, clock);
    // 06:00 in London is 05:00 UTC on the 24th (summer time), 06:00 UTC on the 25th and 26th.
    for (const day of [
      "2026-10-24T04:50:00Z",
      "2026-10-25T05:50:00Z",
      "2026-10-26T05:50:00Z",
    ])
      await live(clock, day, 20);
    await expect.poll(() => sweeps.length).toBe(3);
    expect(sweeps.map((s) => s.at.slice(0, 16))).toEqual([
      "2026-10-24T05:00",
      "2026-10-25T06:00",
      "2026-10-26T06:00",
    ]);
    expect(sweeps.every((s) => s.request.kind === "daily")).toBe(true);
  }, 120_000);

  it("runs a day missed while every process was down once, when one starts again", async () => {
    const clock = new TestClock("2026-11-20T12:00:00Z");
    const first = await proxies(1, clock);
    await Promise.all(running.splice(0).map((jobs) => jobs.stop()));
    // Down for three days: three 06:00s pass with nothing running.
    await clock.setTime("2026-11-23T09:00:00Z");
    await first.start(2);
    await clock.tick(5 * 60_000);
    await expect.poll(() => first.sweeps.length).toBe(1);
    await clock.tick(10 * 60_000);
    expect(first.sweeps).toHaveLength(1);
  }, 120_000);

  it("a sweep asked for now runs at once, with the fleet's vehicles", async () => {
    const clock = new TestClock("2026-11-20T12:00:00Z");
    const { sweeps, all } = await proxies(2, clock);
    await all[1]!.checkNow({
      fleetId: "vans",
      registrations: ["AB12CDE", "SW71UWJ"],
    });
    await clock.tick(10_000);
    await expect.poll(() => sweeps.length).toBe(1);
    expect(sweeps[0]?.request).toEqual({
      kind: "on demand",
      fleetId: "vans",
      registrations: ["AB12CDE", "SW71UWJ"],
    });
  }, 120_000);

  it("runs the alert deliveries after a sweep, and when asked, in one process at a time", async () => {
    // Half a minute from the every-minute schedule's next run, which the ticks below never reach.
    const clock = new TestClock("2026-11-20T12:00:30Z");
    // Each run is held under way until released, counting the runs under way at once.
    const deliveries: number[] = [];
    let underWay = 0;
    let peak = 0;
    let release!: () => void;
    const released = new Promise<void>((done) => (release = done));
    const { sweeps, all } = await proxies(
      2,
      clock,
      false,
      undefined,
      async (by) => {
        deliveries.push(by);
        underWay += 1;
        peak = Math.max(peak, underWay);
        await released;
        underWay -= 1;
      },
    );
    /** Lets both processes poll their queues for `seconds` of the clock. */
    const pass = async (seconds: number) => {
      for (let s = 0; s < seconds; s += 5) await clock.tick(5_000);
    };
    try {
      await all[0]!.checkNow();
      await clock.tick(5_000);
      await expect.poll(() => sweeps.length).toBe(1);
      // One run after the sweep, and only one, in whichever process.
      await expect.poll(() => deliveries.length).toBe(1);
      await pass(20);
      expect(deliveries).toHaveLength(1);
      // Asked of both processes while that run is under way: one waits, none starts beside it.
      await all[1]!.deliverNow();
      await all[0]!.deliverNow();
      await pass(20);
      expect(deliveries).toHaveLength(1);
      expect(underWay).toBe(1);
    } finally {
      release();
    }
    // Released, the one that waited runs; the other ask added nothing.
    await clock.tick(5_000);
    await expect.poll(() => deliveries.length).toBe(2);
    await pass(20);
    expect(deliveries).toHaveLength(2);
    expect(peak).toBe(1);
  }, 120_000);

  it("queues a fleet's check once, whichever process is asked, while it is queued or under way", async () => {
    const clock = new TestClock("2026-11-20T12:00:00Z");
    // The first sweep is held under way until released; the others finish at once.
    let release: (() => void) | undefined;
    const { sweeps, all } = await proxies(2, clock, false, () =>
      release
        ? Promise.resolve()
        : new Promise<void>((done) => (release = done)),
    );
    // Each worker fetches once as it starts, then only as the test clock ticks. That first fetch
    // runs on its own: on a busy machine it came after the check below was queued and took it
    // (CI, 1 December 2026), so the queue was empty when asked. Nothing shows that it has run,
    // so the test gives it a second of real time.
    await delay(FIRST_FETCH_MS);
    const vans = { fleetId: "vans", registrations: ["AB12CDE"] };
    expect(await all[0]!.checkNow(vans)).toEqual({ alreadyRunning: false });
    // Queued, asked of the other process, whose fleet page says it is being checked.
    expect(await all[1]!.checkNow(vans)).toEqual({ alreadyRunning: true });
    expect(await all[1]!.checking("vans")).toBe(true);
    expect(await all[1]!.checking("cars")).toBe(false);
    // Waiting in the queue, as every process sees it (the metrics' job queue depth).
    expect(await all[1]!.queuedSweeps()).toEqual({
      depth: 1,
      oldestAt: expect.any(Number),
    });
    await clock.tick(10_000);
    await expect.poll(() => sweeps.length).toBe(1);
    // Under way: no longer waiting.
    expect(await all[0]!.queuedSweeps()).toEqual({ depth: 0 });
    expect(await all[1]!.checkNow(vans)).toEqual({ alreadyRunning: true });
    expect(
      await all[1]!.checkNow({ fleetId: "cars", registrations: ["LP08SED"] }),
    ).toEqual({ alreadyRunning: false });
    release?.();
    // Once it has finished, the fleet can be checked again.
    await expect
      .poll(async () => (await all[0]!.checkNow(vans)).alreadyRunning, {
        timeout: 20_000,
      })
      .toBe(false);
    expect(sweeps[0]?.request.fleetId).toBe("vans");
  }, 120_000);

  it("queues vehicles just added to a fleet while its check is under way, with only those vehicles (review A2)", async () => {
    const clock = new TestClock("2026-11-20T12:00:00Z");
    // The first sweep is held under way until released; the others finish at once.
    let release: (() => void) | undefined;
    const { sweeps, all } = await proxies(2, clock, false, () =>
      release
        ? Promise.resolve()
        : new Promise<void>((done) => (release = done)),
    );
    const first = {
      fleetId: "vans",
      registrations: ["AB12CDE", "LP08SED", "ER19ERR"],
      added: true,
    };
    expect(await all[0]!.checkNow(first)).toEqual({ alreadyRunning: false });
    await clock.tick(10_000);
    await expect.poll(() => sweeps.length).toBe(1);
    // Under way: a new list, saved through the other process, adds one vehicle.
    expect(
      await all[1]!.checkNow({
        fleetId: "vans",
        registrations: ["SW71UWJ"],
        added: true,
      }),
    ).toEqual({ alreadyRunning: false });
    // "Check this fleet now" meanwhile still queues nothing more.
    expect(
      await all[1]!.checkNow({ fleetId: "vans", registrations: ["AB12CDE"] }),
    ).toEqual({ alreadyRunning: true });
    release?.();
    for (let s = 0; s < 20 && sweeps.length < 2; s += 1) {
      await clock.tick(5_000);
      await new Promise((done) => setTimeout(done, 100));
    }
    await expect.poll(() => sweeps.length).toBe(2);
    expect(sweeps.map((sweep) => sweep.request)).toEqual([
      {
        kind: "on demand",
        fleetId: "vans",
        registrations: ["AB12CDE", "LP08SED", "ER19ERR"],
      },
      { kind: "on demand", fleetId: "vans", registrations: ["SW71UWJ"] },
    ]);
    await expect
      .poll(() => all[0]!.checking("vans"), { timeout: 20_000 })
      .toBe(false);
  }, 120_000);

  it("retries a failing sweep with backoff, then moves it to the dead-letter queue", async () => {
    const clock = new TestClock("2026-11-20T12:00:00Z");
    const { sweeps, all, url } = await proxies(1, clock, true);
    await all[0]!.checkNow();
    for (let minute = 0; minute < 30; minute += 1) await clock.tick(60_000);
    await expect.poll(() => sweeps.length).toBe(3);
    const { rows } = await server().query(
      `SELECT count(*)::int AS n FROM ${JOBS_SCHEMA}.job WHERE name = $1`,
      url.split("/").pop(),
      [SWEEP_DEAD_LETTER],
    );
    expect(rows[0].n).toBe(1);
  }, 120_000);
});

describe("pg-boss's schema, made only by the store's owner setup", () => {
  it("is made by the store of one role, and made again when it is not this release's pg-boss's", async () => {
    const name = `jobs_${++databases}`;
    const url = await server().createDatabase(name);
    const open = () =>
      openPostgresProxyStore({
        url,
        auditRetentionDays: 30,
        applicationName: "vics-proxy-test",
      });
    const jobsOn = (on: ProxyStore) =>
      pgBossJobs({
        connectionString: url,
        store: on,
        handler: async () => REPORT,
        logger: silentLogger,
        instanceName: "one role",
      });
    const version = async () =>
      (
        await server().query(`SELECT version FROM ${JOBS_SCHEMA}.version`, name)
      ).rows.map((row: { version: string }) => Number(row.version));

    store = await open();
    expect(await version()).toEqual([JOBS_SCHEMA_VERSION]);
    const jobs = jobsOn(store);
    running.push(jobs);
    await jobs.start();
    await Promise.all(running.splice(0).map((engine) => engine.stop()));
    await store.close();

    // An older pg-boss's schema, or none: the setup state says so, and the next open makes it.
    const pool = openPgPool({ url, applicationName: "vics-proxy-test" });
    try {
      await server().query(
        `UPDATE ${JOBS_SCHEMA}.version SET version = $1`,
        name,
        [String(JOBS_SCHEMA_VERSION - 1)],
      );
      expect(await jobsSchemaInstalled(pool)).toBe(false);
      await server().query(`DROP SCHEMA ${JOBS_SCHEMA} CASCADE`, name);
      expect(await jobsSchemaInstalled(pool)).toBe(false);
    } finally {
      await pool.end();
    }
    store = await open();
    expect(await version()).toEqual([JOBS_SCHEMA_VERSION]);
    const again = jobsOn(store);
    running.push(again);
    await again.start();
  }, 120_000);
});

describe("the sweeps on pg-boss, as the lesser role the proxy works as", () => {
  /** A database its owner owns, and the URLs to reach it as the owner and as the app role. */
  async function ownedDatabase() {
    const name = `jobs_${++databases}`;
    await server().createDatabase(name);
    await server().query(
      `DO $$ BEGIN
         IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'jobs_owner') THEN
           CREATE ROLE jobs_owner LOGIN; CREATE ROLE jobs_app LOGIN;
         END IF;
       END $$;
       ALTER DATABASE ${name} OWNER TO jobs_owner`,
    );
    const as = (role: string) =>
      server().url(name).replace("postgres@", `${role}@`);
    return { name, owner: as("jobs_owner"), app: as("jobs_app") };
  }

  it("refuses to start before the owner's setup, saying who makes the schema; after it, starts and sweeps", async () => {
    const { name, owner, app } = await ownedDatabase();
    const logger = memoryLogger("warn", "proxy");
    const jobsAs = (url: string, on: ProxyStore) =>
      pgBossJobs({
        connectionString: url,
        store: on,
        // No vehicle is watched: the sweep records its run without asking the service.
        handler: sweepHandler({
          store: on,
          now: Date.now,
          client: createHttpFleetClient({ baseUrl: "http://127.0.0.1:9" }),
        }),
        logger,
        instanceName: "lesser proxy",
      });

    store = openSqliteProxyStore({ path: ":memory:", auditRetentionDays: 30 });
    const early = jobsAs(app, store);
    running.push(early);
    await expect(early.start()).rejects.toThrow(
      /not installed.*MIGRATION_DATABASE_URL/,
    );
    await store.close();

    // What the proxy does at each start with MIGRATION_DATABASE_URL: the owner's setup.
    store = await openPostgresProxyStore({
      url: app,
      migrationUrl: owner,
      auditRetentionDays: 30,
      applicationName: "vics-proxy-test",
    });
    const { rows } = await server().query(
      `SELECT pg_get_userbyid(nspowner) AS owner,
         has_schema_privilege('jobs_app', nspname, 'CREATE') AS app_creates
       FROM pg_namespace WHERE nspname = $1`,
      name,
      [JOBS_SCHEMA],
    );
    expect(rows).toEqual([{ owner: "jobs_owner", app_creates: false }]);

    const jobs = jobsAs(app, store);
    running.push(jobs);
    await jobs.start();
    await jobs.checkNow();
    await expect
      .poll(async () => (await store.watchRuns(5)).map((r) => r.outcome), {
        timeout: 20_000,
        interval: 250,
      })
      .toEqual(["finished"]);
    expect(logger.events.filter((e) => e.level === "error")).toEqual([]);
  }, 120_000);
});
