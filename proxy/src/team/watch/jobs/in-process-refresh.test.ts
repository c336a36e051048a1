// The refresh ahead of the sweep on the embedded SQLite: croner fires it its lead time before
// the daily sweep, in UK time (on a fake clock), retries it after a failure and records only the
// last try's (or the one the stop cut short), never fires with a lead of 0, and follows the
// admin's new daily time.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { memoryLogger } from "@vics/server-kit/testing/memory-logger";
import type { ProxyStore } from "../../store/proxy-store.ts";
import { openSqliteProxyStore } from "../../store/sqlite/sqlite-proxy-store.ts";
import type { RefreshReport } from "../register-refresh.ts";
import { timeBefore } from "../../schedule/daily-time.ts";
import { inProcessJobs } from "./in-process-jobs.ts";
import { refreshHandler, type RefreshHandler } from "./refresh-job.ts";
import { plates, vehicles } from "../../../testing/register-refresh.ts";
import type { SweepHandler } from "./sweep-job.ts";
import { SWEEP_ATTEMPTS, type JobEngine } from "./watch-jobs.ts";

const REPORT: RefreshReport = {
  on: true,
  sent: 1,
  queued: 1,
  fresh: 0,
  invalid: 0,
};

let store: ProxyStore;
let jobs: JobEngine | undefined;
beforeEach(() => {
  store = openSqliteProxyStore({ path: ":memory:", auditRetentionDays: 30 });
});
afterEach(async () => {
  await jobs?.stop();
  jobs = undefined;
  vi.useRealTimers();
  store.close();
});

/** An engine on a fake clock from `from`, noting when each sweep and refresh ran. */
async function engineFrom(
  from: string,
  refresh: RefreshHandler,
  refreshLeadMinutes = 120,
) {
  vi.useFakeTimers({
    now: Date.parse(from),
    toFake: ["setTimeout", "clearTimeout", "Date"],
  });
  const sweeps: string[] = [];
  const handler: SweepHandler = async (request) => {
    sweeps.push(`${request.kind} ${new Date().toISOString()}`);
    return { vehicles: 0, unknown: 0, opened: [], status: "finished" };
  };
  const logger = memoryLogger();
  jobs = inProcessJobs({
    store,
    handler,
    refresh,
    refreshLeadMinutes,
    logger,
    now: Date.now,
    retryDelayMs: 60_000,
  });
  await jobs.start();
  return { sweeps, logger, jobs };
}

describe("the refresh ahead of the sweep, in process", () => {
  it("runs its lead time before the daily sweep, UK time, once a day", async () => {
    const refreshes: string[] = [];
    // Summer time on the 24th (04:00 in London is 03:00 UTC), winter on the 25th.
    const { sweeps } = await engineFrom("2026-10-24T02:00:00Z", async () => {
      refreshes.push(new Date().toISOString());
      return REPORT;
    });
    await vi.advanceTimersByTimeAsync(29 * 3_600_000);
    expect(refreshes).toEqual([
      "2026-10-24T03:00:00.000Z",
      "2026-10-25T04:00:00.000Z",
    ]);
    // The sweeps it is ahead of (the first, at start, the day before's, missed).
    expect(sweeps.slice(1)).toEqual([
      "daily 2026-10-24T05:00:00.000Z",
      "daily 2026-10-25T06:00:00.000Z",
    ]);
  }, 30_000);

  it(`retries a refresh that fails, a minute apart, ${SWEEP_ATTEMPTS} tries in all, saying why each time`, async () => {
    const tries: string[] = [];
    const { logger } = await engineFrom("2026-11-20T03:59:00Z", async () => {
      tries.push(new Date().toISOString());
      throw new Error("the vehicle service could not be reached");
    });
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(tries).toEqual([
      "2026-11-20T04:00:00.000Z",
      "2026-11-20T04:01:00.000Z",
      "2026-11-20T04:02:00.000Z",
    ]);
    const failures = logger.events.filter(
      (event) =>
        event.msg ===
        "The refresh of the watched vehicles' register facts failed",
    );
    expect(failures.map((event) => [event.attempt, event.error])).toEqual([
      [1, "the vehicle service could not be reached"],
      [2, "the vehicle service could not be reached"],
      [3, "the vehicle service could not be reached"],
    ]);
  });

  it("records one failed run for three failed tries: the last one's", async () => {
    await store.createFleet(
      "Vans",
      { columns: [], vehicles: vehicles(plates(3)) },
      { email: "ann@example.org", at: Date.parse("2026-11-20T00:00:00Z") },
    );
    let tries = 0;
    const handle = refreshHandler({
      store,
      logger: memoryLogger(),
      // Read when called: the engine's fake clock is installed after.
      now: () => Date.now(),
      refresh: async () => {
        tries += 1;
        throw new Error("the vehicle service could not be reached");
      },
    });
    await engineFrom("2026-11-20T03:59:00Z", handle);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(tries).toBe(3);
    const runs = await store.watchRuns(10);
    expect(
      runs.map((run) => [run.kind, run.outcome, new Date(run.startedAt)]),
    ).toEqual([
      [
        "refresh",
        "failed: the vehicle service could not be reached",
        new Date("2026-11-20T04:02:00Z"),
      ],
    ]);
  });

  it("records the try the stop cuts short, saying how far it got: no try follows it", async () => {
    await store.createFleet(
      "Vans",
      { columns: [], vehicles: vehicles(plates(1_500)) },
      { email: "ann@example.org", at: Date.parse("2026-11-20T00:00:00Z") },
    );
    let stopped: Promise<void> | undefined;
    const handle = refreshHandler({
      store,
      logger: memoryLogger(),
      // Read when called: the engine's fake clock is installed after.
      now: () => Date.now(),
      refresh: async (slice) => {
        // The proxy stops while the first slice is at the service.
        stopped ??= jobs?.stop();
        return { on: true, queued: slice.length, fresh: 0, invalid: [] };
      },
    });
    await engineFrom("2026-11-20T03:59:00Z", handle);
    await vi.advanceTimersByTimeAsync(2 * 60_000);
    await stopped;
    const runs = await store.watchRuns(10);
    expect(runs.map((run) => [run.kind, run.outcome])).toEqual([
      [
        "refresh",
        "failed: the proxy stopped after 1,000 of 1,500 vehicles were sent",
      ],
    ]);
  });

  it("never runs with a lead of 0", async () => {
    let refreshes = 0;
    await engineFrom(
      "2026-11-20T00:00:00Z",
      async () => {
        refreshes += 1;
        return REPORT;
      },
      0,
    );
    await vi.advanceTimersByTimeAsync(24 * 3_600_000);
    expect(refreshes).toBe(0);
  }, 30_000);

  it("moves with the admin's new daily time", async () => {
    const refreshes: string[] = [];
    const engine = await engineFrom("2026-11-20T22:00:00Z", async () => {
      refreshes.push(new Date().toISOString());
      return REPORT;
    });
    await engine.jobs.reschedule("01:30");
    await vi.advanceTimersByTimeAsync(3 * 3_600_000);
    expect(refreshes).toEqual(["2026-11-20T23:30:00.000Z"]);
  });
});

describe("timeBefore", () => {
  it.each([
    ["06:00", 120, "04:00"],
    ["01:00", 120, "23:00"],
    ["00:15", 30, "23:45"],
    ["06:30", 720, "18:30"],
    ["06:00", 0, "06:00"],
  ])("%s less %i minutes is %s", (time, lead, before) => {
    expect(timeBefore(time, lead)).toBe(before);
  });
});
