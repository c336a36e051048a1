// The jobs as the proxy opens them know whether they started: not running until start() has
// succeeded, and why not, in words, when it failed or they are stopping; off without a key.
import { describe, expect, it } from "vitest";
import { silentLogger } from "@vics/shared/server/logger";
import { openSqliteProxyStore } from "../../store/sqlite/sqlite-proxy-store.ts";
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
