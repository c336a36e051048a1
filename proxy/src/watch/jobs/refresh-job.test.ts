// The refresh as both engines run it, against the real service: recorded as a watch run of its
// own kind with its counts in words; "no register is on" said once, not every day; a failure
// recorded and thrown for the engine to retry.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createTestService,
  registerDown,
  type TestService,
} from "@vics/service/testing";
import { memoryLogger } from "@vics/shared/testing/memory-logger";
import type { ProxyStore } from "../../store/proxy-store.ts";
import { openSqliteProxyStore } from "../../store/sqlite/sqlite-proxy-store.ts";
import { registerRefreshCall } from "../register-refresh.ts";
import {
  plates,
  refreshThrough,
  vehicles,
  type Sent,
} from "../testing/register-refresh.ts";
import {
  NO_REGISTER_ON,
  refreshHandler,
  refreshOutcome,
} from "./refresh-job.ts";

const T0 = Date.parse("2026-11-20T04:00:00Z");
let clock: number;
let service: TestService | undefined;
let closeRegister: (() => Promise<void>) | undefined;
let store: ProxyStore;
let sent: Sent[];

async function startService(registerOn: boolean) {
  service = await createTestService({
    sandbox: false,
    fleetSize: 20,
    ...(registerOn && {
      sources: (serviceStore) => {
        const sources = registerDown()(serviceStore);
        closeRegister = () => sources.refresher.close();
        return sources;
      },
    }),
  });
  return service;
}

beforeEach(async () => {
  clock = T0;
  sent = [];
  closeRegister = undefined;
  store = openSqliteProxyStore({ path: ":memory:", auditRetentionDays: 30 });
  await store.createFleet(
    "Vans",
    { columns: [], vehicles: vehicles(plates(1_200)) },
    { email: "ann@example.org", at: T0 },
  );
});
afterEach(async () => {
  await closeRegister?.();
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
      "Refreshed ahead of the sweep: 1,200 vehicles sent, 1,200 register requests queued, 0 already fresh.";
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
  });

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

  it("records a failure in words and throws it, for the engine to retry", async () => {
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
    await expect(handle()).rejects.toThrow(/could not be reached/);
    const [run] = await store.watchRuns(5);
    expect(run).toMatchObject({
      kind: "refresh",
      outcome:
        "failed: the vehicle service could not be reached (connect ECONNREFUSED)",
    });
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
      "Refreshed ahead of the sweep: 12,000 vehicles sent, 11,800 register requests queued, 200 already fresh.",
    ],
    [
      { on: true, sent: 3, queued: 2, fresh: 0, invalid: 1 },
      "Refreshed ahead of the sweep: 3 vehicles sent, 2 register requests queued, 0 already fresh, 1 not taken for registrations.",
    ],
    [{ on: false, sent: 1, queued: 0, fresh: 0, invalid: 0 }, NO_REGISTER_ON],
  ])("%o", (report, words) => {
    expect(refreshOutcome(report)).toBe(words);
  });
});
