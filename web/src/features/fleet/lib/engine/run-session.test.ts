import "fake-indexeddb/auto";
import { IDBFactory } from "fake-indexeddb";
import { delay } from "msw";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { apiFleetClient } from "../../api/fleet-client.ts";
import type { VehicleResult } from "../fleet-types.ts";
import { openRunStore, type RunStore } from "../store/run-store.ts";
import { startRunSession } from "./run-session.ts";
import { fakeUpstream } from "../../testing/upstream.ts";
import { savedRun, storeWith } from "../../testing/session.ts";
import {
  fakeClock,
  quickTuning,
  registrationsNumbered,
} from "../../testing/engine-run.ts";

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
});

describe("a run session", () => {
  it("retries exactly the registrations it is given, and their new results replace the old", async () => {
    const clock = fakeClock();
    const registrations = ["AB12CDE", "UN51NSD", "LP08SED"];
    const store = await storeWith(savedRun(registrations));
    const old = (registration: string): VehicleResult => ({
      registration,
      insurance: {
        status: "not-checked",
        reason: "The vehicle service did not answer after 4 tries",
      },
      checkedAt: "2026-01-05T09:00:00.000Z",
    });
    await store.saveResults("run-1", registrations.map(old));
    const upstream = fakeUpstream({ clock, notInsured: ["LP08SED"] });

    const session = await startRunSession({
      store,
      client: apiFleetClient,
      runId: "run-1",
      registrations: ["UN51NSD", "LP08SED"],
      tuning: quickTuning(clock),
    });
    await session.ended;

    expect(upstream.calls.map((call) => call.registrations)).toEqual([
      ["UN51NSD", "LP08SED"],
    ]);
    const results = (await store.loadRun("run-1"))?.results;
    expect(results?.get("AB12CDE")).toEqual(old("AB12CDE"));
    expect(results?.get("UN51NSD")?.insurance.status).toBe("insured");
    expect(results?.get("LP08SED")?.insurance.status).toBe("not-insured");
    expect(session.getSnapshot().results.get("LP08SED")?.insurance.status).toBe(
      "not-insured",
    );
  });

  it("keeps the saved status current through pause, resume and the end", async () => {
    const clock = fakeClock();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    fakeUpstream({
      clock,
      script: async () => {
        await held;
        return undefined;
      },
    });
    const store = await storeWith(savedRun(registrationsNumbered(4)));
    const session = await startRunSession({
      store,
      client: apiFleetClient,
      runId: "run-1",
      tuning: quickTuning(clock, { chunkSize: 2, concurrency: 1 }),
    });
    const status = async () => (await store.loadRun("run-1"))?.run.status;
    expect(await status()).toBe("running");

    session.pause();
    await vi.waitFor(async () => expect(await status()).toBe("paused"));
    expect(session.getSnapshot().run.status).toBe("paused");
    session.resume();
    await vi.waitFor(async () => expect(await status()).toBe("running"));
    release();
    await expect(session.ended).resolves.toBe("finished");
    expect(await status()).toBe("finished");
  });

  it("saves 'cancelled' when the user cancels", async () => {
    const clock = fakeClock();
    const upstream = fakeUpstream({
      clock,
      script: async () => {
        await delay("infinite");
        return undefined;
      },
    });
    const store = await storeWith(savedRun(registrationsNumbered(4)));
    const session = await startRunSession({
      store,
      client: apiFleetClient,
      runId: "run-1",
      // A request the service sits on is given up a moment after the stop.
      tuning: quickTuning(clock, { stopGraceMs: 10 }),
    });
    await vi.waitFor(() => expect(upstream.calls).toHaveLength(1));

    session.cancel();
    await expect(session.ended).resolves.toBe("cancelled");
    expect((await store.loadRun("run-1"))?.run.status).toBe("cancelled");
    expect((await store.loadRun("run-1"))?.results.size).toBe(0);
  });

  it("tells its subscribers of each change, with a snapshot that only changes when something did", async () => {
    const clock = fakeClock();
    fakeUpstream({ clock });
    const store = await storeWith(savedRun(registrationsNumbered(6)));
    const session = await startRunSession({
      store,
      client: apiFleetClient,
      runId: "run-1",
      tuning: quickTuning(clock, { chunkSize: 2, concurrency: 1 }),
    });
    const listener = vi.fn();
    session.subscribe(listener);
    await session.ended;

    expect(listener).toHaveBeenCalled();
    expect(session.getSnapshot()).toBe(session.getSnapshot());
    expect(session.getSnapshot()).toMatchObject({
      progress: { done: 6, total: 6 },
    });
    expect(session.getSnapshot().resultsVersion).toBeGreaterThan(0);
    expect(session.getSnapshot().results.size).toBe(6);
  });

  it("tells new results at once, then at most once a second while it runs, and every one when it ends", async () => {
    const clock = fakeClock();
    fakeUpstream({ clock });
    const store = await storeWith(savedRun(registrationsNumbered(20)));
    const session = await startRunSession({
      store,
      client: apiFleetClient,
      runId: "run-1",
      tuning: quickTuning(clock, { chunkSize: 1, concurrency: 1 }),
    });
    // How many results the page had been told of, each time it was told of more.
    const told: number[] = [];
    let version = 0;
    session.subscribe(() => {
      const { resultsVersion, results } = session.getSnapshot();
      if (resultsVersion !== version) told.push(results.size);
      version = resultsVersion;
    });
    await session.ended;

    // 20 batches, saved well within a second: the first told as it came, the rest at the end.
    expect(told[0]).toBe(1);
    expect(told.length).toBeLessThan(20);
    expect(told.at(-1)).toBe(20);
    expect(session.getSnapshot().results.size).toBe(20);
  });

  it("stops with words the page can show when results cannot be saved, leaving the run resumable", async () => {
    const clock = fakeClock();
    fakeUpstream({ clock });
    const store = await storeWith(savedRun(registrationsNumbered(4)));
    const failing: RunStore = {
      ...store,
      saveResults: () =>
        Promise.reject(new Error("The quota has been exceeded.")),
    };
    const session = await startRunSession({
      store: failing,
      client: apiFleetClient,
      runId: "run-1",
      tuning: quickTuning(clock),
    });

    await expect(session.ended).resolves.toBe("paused");
    expect(session.getSnapshot().error).toBe(
      "The run stopped because its results could not be saved: The quota has been exceeded.",
    );
    expect((await store.loadRun("run-1"))?.run.status).toBe("paused");
  });

  it("refuses a run that is not saved", async () => {
    const store = await openRunStore();
    await expect(
      startRunSession({ store, client: apiFleetClient, runId: "missing" }),
    ).rejects.toThrow("No saved run missing");
  });
});
