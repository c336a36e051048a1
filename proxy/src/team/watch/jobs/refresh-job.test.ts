// The refresh as both engines run it, against the real service: ahead of the coming sweep,
// recorded as a watch run of its own kind with its counts in words; "no register is on" said
// once, not every day, however many runs came since; a failure thrown for the engine to retry,
// and recorded only when no try follows it.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createTestService,
  registerDown,
  type TestService,
} from "@vics/service/testing";
import { memoryLogger } from "@vics/server-kit/testing/memory-logger";
import type { ProxyStore } from "../../store/proxy-store.ts";
import { openSqliteProxyStore } from "../../store/sqlite/sqlite-proxy-store.ts";
import { registerRefreshCall } from "../register-refresh.ts";
import {
  plates,
  refreshThrough,
  vehicles,
  type Sent,
} from "../../../testing/register-refresh.ts";
import {
  NO_REGISTER_ON,
  refreshHandler,
  refreshOutcome,
} from "./refresh-job.ts";

const T0 = Date.parse("2026-11-20T04:00:00Z");
let clock: number;
let service: TestService | undefined;
let store: ProxyStore;
let sent: Sent[];

async function startService(registerOn: boolean) {
  service = await createTestService({
    sandbox: false,
    fleetSize: 20,
    ...(registerOn && { sources: registerDown() }),
  });
  return service;
}

beforeEach(async () => {
  clock = T0;
  sent = [];
  store = openSqliteProxyStore({ path: ":memory:", auditRetentionDays: 30 });
  await store.createFleet(
    "Vans",
    { columns: [], vehicles: vehicles(plates(1_200)) },
    { email: "ann@example.org", at: T0 },
  );
});
afterEach(async () => {
  await store.close();
  await service?.close();
  service = undefined;
});

describe("the refresh handler", () => {
  it("records a watch run of its own kind, with what it sent, queued and found fresh", async () => {
    const running = await startService(true);
    const key = await running.createKey("internal", "re-checks");
    const logger = memoryLogger();
    const handle = refreshHandler({
      store,
      logger,
      now: () => (clock += 1_000),
      refresh: refreshThrough(running, key, sent),
    });
    await handle();
    const outcome =
      "Queued ahead of the sweep: 1,200 vehicles sent, 1,200 register requests queued, 0 already fresh; the Sources page shows the requests made and any left for the quota.";
    expect(await store.watchRuns(5)).toEqual([
      {
        id: expect.any(Number) as number,
        kind: "refresh",
        startedAt: T0 + 1_000,
        finishedAt: T0 + 2_000,
        outcome,
        vehicles: 1_200,
        unknown: 0,
        alerts: 0,
      },
    ]);
    expect(logger.events.map((event) => event.msg)).toContain(outcome);
    // Fresh until the sweep it is ahead of (06:00, UK time), not only fresh now.
    expect(new Set(sent.map((s) => s.until))).toEqual(
      new Set(["2026-11-20T06:00:00.000Z"]),
    );
  });

  it.each([
    // Winter: UK time is UTC.
    ["06:00", "2026-11-20T04:00:00Z", "2026-11-20T06:00:00.000Z"],
    // Summer: 06:00 in London is 05:00 UTC.
    ["06:00", "2026-07-01T03:00:00Z", "2026-07-01T05:00:00.000Z"],
    // A sweep just after midnight: tomorrow's.
    ["01:00", "2026-11-20T23:00:00Z", "2026-11-21T01:00:00.000Z"],
  ])(
    "asks for the facts fresh until the coming sweep at the admin's time %s, from %s",
    async (time, from, until) => {
      const running = await startService(true);
      const key = await running.createKey("internal", "re-checks");
      await store.setWatchSetting("daily time", time);
      const handle = refreshHandler({
        store,
        logger: memoryLogger(),
        now: () => Date.parse(from),
        refresh: refreshThrough(running, key, sent),
      });
      await handle();
      expect(sent.map((s) => s.until)).toEqual([until, until]);
    },
  );

  it("says once that no register is on, however many days it finds none", async () => {
    const running = await startService(false);
    const key = await running.createKey("internal", "re-checks");
    const handle = refreshHandler({
      store,
      logger: memoryLogger(),
      now: () => clock,
      refresh: refreshThrough(running, key, sent),
    });
    await handle();
    await handle();
    // One slice a day asked, then nothing more.
    expect(sent).toHaveLength(2);
    const runs = await store.watchRuns(5);
    expect(runs.map((run) => [run.kind, run.outcome, run.vehicles])).toEqual([
      ["refresh", NO_REGISTER_ON, 0],
    ]);
  });

  it("still says it only once when many on-demand runs came after it", async () => {
    const running = await startService(false);
    const key = await running.createKey("internal", "re-checks");
    const handle = refreshHandler({
      store,
      logger: memoryLogger(),
      now: () => clock,
      refresh: refreshThrough(running, key, sent),
    });
    await handle();
    for (let n = 0; n < 60; n += 1) {
      const id = await store.startWatchRun("on demand", T0 + n);
      await store.finishWatchRun(id, {
        finishedAt: T0 + n,
        outcome: "finished",
        vehicles: 1,
        unknown: 0,
        alerts: 0,
      });
    }
    await handle();
    const refreshes = (await store.watchRuns(100)).filter(
      (run) => run.kind === "refresh",
    );
    expect(refreshes.map((run) => run.outcome)).toEqual([NO_REGISTER_ON]);
  });

  it("throws a failure for the engine to retry, and records it in words only on the last try", async () => {
    const handle = refreshHandler({
      store,
      logger: memoryLogger(),
      now: () => clock,
      refresh: registerRefreshCall({
        send: () => Promise.reject(new Error("connect ECONNREFUSED")),
        upstreamUrl: "http://service.internal",
        apiKey: "any",
        timeoutMs: 5_000,
      }),
    });
    await expect(handle(undefined, () => false)).rejects.toThrow(
      /could not be reached/,
    );
    await expect(handle(undefined, () => false)).rejects.toThrow(
      /could not be reached/,
    );
    expect(await store.watchRuns(5)).toEqual([]);
    // The last try (or a caller that says nothing of tries): recorded.
    await expect(handle(undefined, () => true)).rejects.toThrow(
      /could not be reached/,
    );
    await expect(handle()).rejects.toThrow(/could not be reached/);
    const runs = await store.watchRuns(5);
    // Each names its own request id, for the service's log lines about it.
    const failed = expect.stringMatching(
      /^failed: the vehicle service could not be reached \(connect ECONNREFUSED\) \(request id [0-9a-f-]{36}\)$/,
    ) as string;
    expect(runs.map((run) => [run.kind, run.outcome])).toEqual([
      ["refresh", failed],
      ["refresh", failed],
    ]);
    expect(runs[0]?.outcome).not.toBe(runs[1]?.outcome);
  });

  it("records nothing when no vehicle is watched", async () => {
    const empty = openSqliteProxyStore({
      path: ":memory:",
      auditRetentionDays: 30,
    });
    let calls = 0;
    const handle = refreshHandler({
      store: empty,
      logger: memoryLogger(),
      now: () => clock,
      refresh: async () => {
        calls += 1;
        return { on: true, queued: 0, fresh: 0, invalid: [] };
      },
    });
    await handle();
    expect(calls).toBe(0);
    expect(await empty.watchRuns(5)).toEqual([]);
    await empty.close();
  });
});

describe("refreshOutcome", () => {
  it.each([
    [
      { on: true, sent: 12_000, queued: 11_800, fresh: 200, invalid: 0 },
      "Queued ahead of the sweep: 12,000 vehicles sent, 11,800 register requests queued, 200 already fresh; the Sources page shows the requests made and any left for the quota.",
    ],
    [
      { on: true, sent: 3, queued: 2, fresh: 0, invalid: 1 },
      "Queued ahead of the sweep: 3 vehicles sent, 2 register requests queued, 0 already fresh, 1 not taken for registrations; the Sources page shows the requests made and any left for the quota.",
    ],
  ])("%o", (report, words) => {
    expect(refreshOutcome(report)).toBe(words);
  });
});
