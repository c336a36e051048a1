// The sweeps on the embedded SQLite: croner's daily schedule in Europe/London, "missed once"
// at start, one sweep at a time, retries.
import { Cron } from "croner";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { silentLogger } from "@vics/server-kit/logger";
import type { ProxyStore } from "../../store/proxy-store.ts";
import { openSqliteProxyStore } from "../../store/sqlite/sqlite-proxy-store.ts";
import type { SweepReport } from "../sweep.ts";
import {
  dailyCron,
  DAILY_TIME_SETTING,
  SWEEP_TIME_ZONE,
} from "../../schedule/daily-time.ts";
import { inProcessJobs, missedDailySweep } from "./in-process-jobs.ts";
import type { SweepHandler, SweepRequest } from "./sweep-job.ts";
import { SWEEP_ATTEMPTS } from "./watch-jobs.ts";

const REPORT: SweepReport = {
  vehicles: 0,
  unknown: 0,
  opened: [],
  status: "finished",
};

let store: ProxyStore;
beforeEach(() => {
  store = openSqliteProxyStore({ path: ":memory:", auditRetentionDays: 30 });
});
afterEach(() => store.close());

const daily = (time: string) =>
  new Cron(dailyCron(time), { timezone: SWEEP_TIME_ZONE, paused: true });

describe("the daily schedule", () => {
  it.each([
    [
      "spring",
      "2026-03-27T12:00:00Z",
      [
        "2026-03-28T06:00:00.000Z",
        "2026-03-29T05:00:00.000Z",
        "2026-03-30T05:00:00.000Z",
      ],
    ],
    [
      "autumn",
      "2026-10-23T12:00:00Z",
      [
        "2026-10-24T05:00:00.000Z",
        "2026-10-25T06:00:00.000Z",
        "2026-10-26T06:00:00.000Z",
      ],
    ],
  ])(
    "stays at 06:00 UK time across the %s clock change",
    (_season, from, instants) => {
      expect(
        daily("06:00")
          .nextRuns(3, from)
          .map((d) => d.toISOString()),
      ).toEqual(instants);
    },
  );

  it("refuses a time that is not one", () => {
    for (const time of ["6:00", "24:00", "06:60", "noon"])
      expect(() => dailyCron(time)).toThrow(/Not a time of day/);
  });
});

describe("missedDailySweep", () => {
  const cron = daily("06:00");
  const at = (iso: string) => Date.parse(iso);
  it.each([
    ["never swept", undefined, "2026-11-27T09:00:00Z", true],
    [
      "swept at 06:00 today",
      "2026-11-27T06:00:01Z",
      "2026-11-27T09:00:00Z",
      false,
    ],
    [
      "last swept yesterday",
      "2026-11-26T06:00:01Z",
      "2026-11-27T09:00:00Z",
      true,
    ],
    [
      "before today's 06:00",
      "2026-11-26T06:00:01Z",
      "2026-11-27T05:59:00Z",
      false,
    ],
  ])("%s", (_case, last, now, missed) => {
    expect(
      missedDailySweep(
        cron,
        last === undefined ? undefined : at(last),
        at(now),
      ),
    ).toBe(missed);
  });
});

/** Today's daily sweep, already made: a start then runs none. */
async function sweptToday() {
  const id = await store.startWatchRun("daily", Date.now());
  await store.finishWatchRun(id, {
    finishedAt: Date.now(),
    outcome: "finished",
    vehicles: 0,
    unknown: 0,
    alerts: 0,
  });
}

describe("inProcessJobs", () => {
  function jobsWith(handler: SweepHandler, now = Date.now()) {
    return inProcessJobs({
      store,
      handler,
      logger: silentLogger,
      now: () => now,
      sleep: async () => undefined,
    });
  }

  it("sweeps once at start when today's sweep was missed, then not again", async () => {
    const requests: SweepRequest[] = [];
    const jobs = jobsWith(async (request) => {
      requests.push(request);
      await sweptToday();
      return REPORT;
    });
    await store.setWatchSetting(DAILY_TIME_SETTING, "00:00");
    await jobs.start();
    await expect.poll(() => requests.length).toBe(1);
    await jobs.stop();
    const again = jobsWith(async (request) => {
      requests.push(request);
      return REPORT;
    });
    await again.start();
    await again.stop();
    expect(requests).toEqual([{ kind: "daily" }]);
  });

  it("runs no sweep at start when today's finished behind more than a page of other runs", async () => {
    await sweptToday();
    // Refreshes and on-demand runs since: a page of the newest runs holds no daily sweep.
    for (let n = 0; n < 60; n += 1)
      await store.startWatchRun(n % 2 ? "refresh" : "on demand", Date.now());
    const requests: SweepRequest[] = [];
    const jobs = jobsWith(async (request) => {
      requests.push(request);
      return REPORT;
    });
    await jobs.start();
    await jobs.stop();
    expect(requests).toEqual([]);
  });

  it("runs 'check now' with the fleet's vehicles, one sweep at a time, and retries a failure", async () => {
    const seen: string[] = [];
    let running = 0;
    let failures = 0;
    const jobs = jobsWith(async (request) => {
      running += 1;
      expect(running).toBe(1);
      seen.push(request.registrations?.join(",") ?? "all");
      await new Promise((done) => setTimeout(done, 5));
      running -= 1;
      if (request.registrations?.[0] === "FAILS1" && failures++ < 1)
        throw new Error("the service is down");
      return REPORT;
    });
    await sweptToday();
    await jobs.start();
    await jobs.checkNow({ fleetId: "vans", registrations: ["AB12CDE"] });
    await jobs.checkNow({ fleetId: "cars", registrations: ["FAILS1"] });
    await jobs.checkNow();
    await expect.poll(() => seen.length).toBe(4);
    await jobs.stop();
    expect(seen).toEqual(["AB12CDE", "FAILS1", "FAILS1", "all"]);
  });

  it("says how many sweeps wait behind the one under way, and since when the oldest waits (the metrics)", async () => {
    const asked = Date.parse("2026-11-27T10:00:00Z");
    let release = () => {};
    const started: string[] = [];
    const jobs = jobsWith(async (request) => {
      started.push(request.fleetId ?? "all");
      await new Promise<void>((done) => (release = done));
      return REPORT;
    }, asked);
    await sweptToday();
    await jobs.start();
    expect(await jobs.queuedSweeps()).toEqual({ depth: 0 });
    await jobs.checkNow({ fleetId: "vans", registrations: ["AB12CDE"] });
    await jobs.checkNow({ fleetId: "cars", registrations: ["LP08SED"] });
    await expect.poll(() => started).toEqual(["vans"]);
    expect(await jobs.queuedSweeps()).toEqual({ depth: 1, oldestAt: asked });
    release();
    await expect.poll(() => started).toEqual(["vans", "cars"]);
    expect(await jobs.queuedSweeps()).toEqual({ depth: 0 });
    release();
    await jobs.stop();
  });

  it("queues a fleet's check once while it is queued or under way, retries included; another fleet's still queues", async () => {
    const seen: string[] = [];
    let release = () => {};
    let failed = false;
    const jobs = jobsWith(async (request) => {
      seen.push(request.fleetId ?? "all");
      if (request.fleetId === "vans" && !failed) {
        failed = true;
        throw new Error("the service is down");
      }
      if (request.fleetId === "vans")
        await new Promise<void>((done) => (release = done));
      return REPORT;
    });
    await sweptToday();
    await jobs.start();
    const vans = { fleetId: "vans", registrations: ["AB12CDE"] };
    expect(await jobs.checking("vans")).toBe(false);
    expect(await jobs.checkNow(vans)).toEqual({ alreadyRunning: false });
    // Queued: asked again at once. The fleet's page says it is being checked.
    expect(await jobs.checkNow(vans)).toEqual({ alreadyRunning: true });
    expect(await jobs.checking("vans")).toBe(true);
    expect(await jobs.checking("cars")).toBe(false);
    // Failed once, and under way again on its retry.
    await expect.poll(() => seen).toEqual(["vans", "vans"]);
    expect(await jobs.checkNow(vans)).toEqual({ alreadyRunning: true });
    expect(
      await jobs.checkNow({ fleetId: "cars", registrations: ["LP08SED"] }),
    ).toEqual({ alreadyRunning: false });
    release();
    await expect.poll(() => seen).toEqual(["vans", "vans", "cars"]);
    await expect.poll(() => jobs.checking("vans")).toBe(false);
    // Finished: the fleet can be checked again.
    expect(await jobs.checkNow(vans)).toEqual({ alreadyRunning: false });
    await expect.poll(() => seen.length).toBe(4);
    release();
    await jobs.stop();
  });

  it("queues vehicles just added to a fleet while its check is under way, and says 'checking' until the last is done (review A2)", async () => {
    const seen: string[][] = [];
    const releases: (() => void)[] = [];
    const jobs = jobsWith(async (request) => {
      seen.push(request.registrations ?? []);
      await new Promise<void>((done) => releases.push(done));
      return REPORT;
    });
    await sweptToday();
    await jobs.start();
    const vans = {
      fleetId: "vans",
      registrations: ["AB12CDE", "LP08SED", "ER19ERR"],
      added: true,
    };
    expect(await jobs.checkNow(vans)).toEqual({ alreadyRunning: false });
    await expect.poll(() => seen.length).toBe(1);
    // Under way: a new list adds one vehicle. Queued, with that vehicle only.
    expect(
      await jobs.checkNow({
        fleetId: "vans",
        registrations: ["SW71UWJ"],
        added: true,
      }),
    ).toEqual({ alreadyRunning: false });
    // "Check this fleet now" meanwhile still queues nothing more.
    expect(
      await jobs.checkNow({ fleetId: "vans", registrations: ["AB12CDE"] }),
    ).toEqual({ alreadyRunning: true });
    releases.shift()!();
    await expect.poll(() => seen).toEqual([vans.registrations, ["SW71UWJ"]]);
    // The first is done, the added vehicle's is under way: still checking.
    expect(await jobs.checking("vans")).toBe(true);
    releases.shift()!();
    await expect.poll(() => jobs.checking("vans")).toBe(false);
    await jobs.stop();
    expect(seen).toHaveLength(2);
  });

  it(`gives a sweep up after ${SWEEP_ATTEMPTS} tries`, async () => {
    let tries = 0;
    const jobs = jobsWith(async () => {
      tries += 1;
      throw new Error("the service is down");
    });
    await sweptToday();
    await jobs.start();
    await jobs.checkNow({ fleetId: "vans", registrations: ["AB12CDE"] });
    await expect.poll(() => tries).toBe(SWEEP_ATTEMPTS);
    await jobs.stop();
    expect(tries).toBe(SWEEP_ATTEMPTS);
  });

  it("stops at once while a failed sweep waits for its next try (a minute, unless told)", async () => {
    let tries = 0;
    const jobs = inProcessJobs({
      store,
      handler: async () => {
        tries += 1;
        throw new Error("the store is busy");
      },
      logger: silentLogger,
      now: Date.now,
    });
    await sweptToday();
    await jobs.start();
    await jobs.checkNow({ fleetId: "vans", registrations: ["AB12CDE"] });
    await expect.poll(() => tries).toBe(1);
    const started = Date.now();
    await jobs.stop();
    // Not the retry's wait (a minute): a bound far from it, not a timing of the stop.
    expect(Date.now() - started).toBeLessThan(15_000);
    // Not tried again after the stop.
    expect(tries).toBe(1);
  }, 20_000);
});

describe("inProcessJobs' alert deliveries", () => {
  it("deliver after each sweep and when asked, one run at a time, a request meanwhile making one more", async () => {
    await sweptToday();
    let runs = 0;
    let release: (() => void) | undefined;
    const jobs = inProcessJobs({
      store,
      handler: async () => REPORT,
      deliver: async () => {
        runs += 1;
        if (runs === 1) await new Promise<void>((done) => (release = done));
        return { planned: 0, sent: 0, failed: 0 };
      },
      // Only the runs asked for: a minute's boundary during the test would add one.
      deliverEveryMinute: false,
      logger: silentLogger,
      now: Date.now,
      sleep: async () => undefined,
    });
    await jobs.start();
    await jobs.checkNow();
    await expect.poll(() => runs).toBe(1);
    // Asked twice while the first runs: one more run follows it, not two.
    await jobs.deliverNow();
    await jobs.deliverNow();
    expect(runs).toBe(1);
    release!();
    await expect.poll(() => runs).toBe(2);
    await new Promise((done) => setTimeout(done, 50));
    expect(runs).toBe(2);
    await jobs.stop();
  });
});
