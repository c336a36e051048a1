import "fake-indexeddb/auto";
import { IDBFactory } from "fake-indexeddb";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { apiFleetClient } from "../api/fleet-client.ts";
import { savedRun } from "../testing/session.ts";
import { fakeUpstream } from "../testing/upstream.ts";
import type { FleetServices } from "./fleet-services.ts";
import { inThreadParseWorker } from "./parse/in-thread-parse-worker.ts";
import { resetSessions, sessionFor, startSession } from "./run-registry.ts";
import { openRunStore, type RunStore } from "./store/run-store.ts";

let store: RunStore;
let services: FleetServices;

beforeEach(async () => {
  globalThis.indexedDB = new IDBFactory();
  store = await openRunStore();
  services = {
    openStore: async () => ({ store }),
    client: apiFleetClient,
    parseWorker: inThreadParseWorker,
    tuning: { baseDelayMs: 1, maxDelayMs: 5, progressIntervalMs: 0 },
  };
});

afterEach(() => {
  resetSessions();
  store.close();
});

describe("the run sessions of a page load", () => {
  it("gives a second start of the same run, made before the first is ready, the same session", async () => {
    const run = savedRun(["AB12CDE", "UN51NSD", "MT15EXP"]);
    await store.saveRun(run);
    const upstream = fakeUpstream();
    const [first, second] = await Promise.all([
      startSession(services, run.id),
      startSession(services, run.id),
    ]);
    expect(second).toBe(first);
    expect(sessionFor(run.id)).toBe(first);
    await expect(first.ended).resolves.toBe("finished");
    for (const registration of ["AB12CDE", "UN51NSD", "MT15EXP"])
      expect(upstream.requestsFor(registration)).toBe(1);
  });

  it("starts a new session once the last one has ended (a retry)", async () => {
    const run = savedRun(["AB12CDE"]);
    await store.saveRun(run);
    fakeUpstream();
    const first = await startSession(services, run.id);
    await first.ended;
    const retry = await startSession(services, run.id, ["AB12CDE"]);
    expect(retry).not.toBe(first);
    await expect(retry.ended).resolves.toBe("finished");
  });
});
