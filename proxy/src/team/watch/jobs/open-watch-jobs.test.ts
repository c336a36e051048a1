// The jobs as the proxy opens them know whether they started: not running until start() has
// succeeded, and why not, in words, when it failed or they are stopping; off without a key.
// Their refresh ahead of the sweep goes through the proxy's upstream with the re-checks' key.
import { describe, expect, it, vi } from "vitest";
import { createTestService, registerDown } from "@vics/service/testing";
import { silentLogger } from "@vics/server-kit/logger";
import { openSqliteProxyStore } from "../../store/sqlite/sqlite-proxy-store.ts";
import { sendWithFetch } from "../../../gateway/upstream/upstream-call.ts";
import { plates, vehicles } from "../../../testing/register-refresh.ts";
import { openWatchJobs, withStartState } from "./open-watch-jobs.ts";
import type { JobEngine } from "./watch-jobs.ts";

/** An engine whose start() succeeds, or fails with `failure`. */
const engine = (failure?: Error): JobEngine => ({
  start: async () => {
    if (failure) throw failure;
  },
  stop: async () => undefined,
  checkNow: async () => ({ alreadyRunning: false }),
  checking: async () => false,
  reschedule: async () => undefined,
  deliverNow: async () => undefined,
});

describe("withStartState", () => {
  it("is not running until start() succeeds, then running, then off while stopping", async () => {
    const jobs = withStartState(engine());
    expect(jobs.state()).toEqual({
      running: false,
      reason: expect.stringMatching(/starting/),
    });
    await jobs.start();
    expect(jobs.state()).toEqual({ running: true });
    await jobs.stop();
    expect(jobs.state()).toEqual({
      running: false,
      reason: expect.stringMatching(/stopping/),
    });
  });

  it("says why when start() failed, and still throws for the caller to log", async () => {
    const jobs = withStartState(
      engine(new Error("permission denied for database vics_proxy")),
    );
    await expect(jobs.start()).rejects.toThrow(/permission denied/);
    expect(jobs.state()).toEqual({
      running: false,
      reason:
        "Re-checks are off: their job engine could not start (permission denied for database vics_proxy). They start with the proxy, once that is put right.",
    });
  });

  it("passes the engine's answers through", async () => {
    const jobs = withStartState({
      ...engine(),
      checkNow: async () => ({ alreadyRunning: true }),
    });
    expect(await jobs.checkNow()).toEqual({ alreadyRunning: true });
  });
});

describe("openWatchJobs", () => {
  it("is off without a key of the re-checks' own, and on SQLite runs once started", async () => {
    const store = openSqliteProxyStore({
      path: ":memory:",
      auditRetentionDays: 30,
    });
    const common = {
      store,
      logger: silentLogger,
      upstreamUrl: "http://127.0.0.1:9",
      appUrl: () => "http://127.0.0.1:3000",
      // No refresh is due: nothing goes upstream.
      upstream: () => Promise.reject(new Error("not called")),
      timeoutMs: 5_000,
      refreshLeadMinutes: 0,
    };
    expect(openWatchJobs(common)).toBeUndefined();
    const jobs = openWatchJobs({ ...common, watchApiKey: "a key" })!;
    expect(jobs.state().running).toBe(false);
    await jobs.start();
    expect(jobs.state()).toEqual({ running: true });
    await jobs.stop();
    await store.close();
  });
});

describe("openWatchJobs's refresh ahead of the sweep", () => {
  it("sends the watched vehicles through the proxy's upstream with the re-checks' key, its lead time before the sweep", async () => {
    vi.useFakeTimers({
      now: Date.parse("2026-11-20T03:59:00Z"),
      toFake: ["setTimeout", "clearTimeout", "Date"],
    });
    const service = await createTestService({
      sandbox: false,
      fleetSize: 20,
      sources: registerDown(),
    });
    const store = openSqliteProxyStore({
      path: ":memory:",
      auditRetentionDays: 30,
    });
    try {
      const watchKey = await service.createKey("internal", "re-checks");
      await store.createFleet(
        "Vans",
        { columns: [], vehicles: vehicles(plates(5)) },
        { email: "ann@example.org", at: Date.now() },
      );
      // Today's sweep is made: the start runs none, so only the refresh calls out.
      const swept = await store.startWatchRun("daily", Date.now());
      await store.finishWatchRun(swept, {
        finishedAt: Date.now(),
        outcome: "finished",
        vehicles: 0,
        unknown: 0,
        alerts: 0,
      });
      const keys: (string | null)[] = [];
      const untils: (string | null)[] = [];
      const jobs = openWatchJobs({
        store,
        logger: silentLogger,
        upstreamUrl: "http://service.internal",
        watchApiKey: watchKey,
        upstream: sendWithFetch((input, init) => {
          const request = new Request(input, init);
          keys.push(request.headers.get("X-API-Key"));
          untils.push(new URL(request.url).searchParams.get("until"));
          return service.app.fetch(request);
        }),
        timeoutMs: 5_000,
        refreshLeadMinutes: 120,
        appUrl: () => "http://127.0.0.1:3000",
      })!;
      await jobs.start();
      await vi.advanceTimersByTimeAsync(2 * 60_000);
      await jobs.stop();
      expect(keys).toEqual([watchKey]);
      // Fresh until the 06:00 sweep it is ahead of.
      expect(untils).toEqual(["2026-11-20T06:00:00.000Z"]);
      const [run] = await store.watchRuns(1);
      expect(run).toMatchObject({
        kind: "refresh",
        startedAt: Date.parse("2026-11-20T04:00:00Z"),
        vehicles: 5,
      });
    } finally {
      vi.useRealTimers();
      await store.close();
      await service.close();
    }
  });
});
