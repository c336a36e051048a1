import "fake-indexeddb/auto";
import { IDBFactory } from "fake-indexeddb";
import { renderHook, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { apiFleetClient } from "../api/fleet-client.ts";
import { savedRun } from "../testing/session.ts";
import { fakeUpstream } from "../testing/upstream.ts";
import type { FleetServices } from "./fleet-services.ts";
import { inThreadParseWorker } from "./parse/in-thread-parse-worker.ts";
import { resetSessions, startSession } from "./run-registry.ts";
import { openRunStore, type RunStore } from "./store/run-store.ts";
import { fakeLocks, useFakeLocks, type FakeLocks } from "../testing/locks.ts";
import { useRunsElsewhere } from "./use-runs-elsewhere.ts";

const LOOK_OFTEN_MS = 5;

let store: RunStore;
let services: FleetServices;
let locks: FakeLocks;
let leave: () => void;

beforeEach(async () => {
  globalThis.indexedDB = new IDBFactory();
  store = await openRunStore();
  services = {
    openStore: async () => ({ store }),
    client: apiFleetClient,
    parseWorker: inThreadParseWorker,
    tuning: { baseDelayMs: 1, maxDelayMs: 5, progressIntervalMs: 0 },
  };
  locks = fakeLocks();
  leave = useFakeLocks(locks.tab());
});

afterEach(() => {
  resetSessions();
  store.close();
  leave();
});

/** Every value the hook has given, from its first render on. */
function watchElsewhere() {
  const seen: string[][] = [];
  const hook = renderHook(() => {
    // Looking often, so that any moment the page might look at is looked at.
    const elsewhere = useRunsElsewhere(LOOK_OFTEN_MS);
    seen.push([...elsewhere]);
    return elsewhere;
  });
  return { seen, hook };
}

/** Until the page has had the answer to a look it made after now. */
async function anotherLook() {
  const before = locks.queriesAnswered;
  await waitFor(() => expect(locks.queriesAnswered).toBeGreaterThan(before));
}

describe("the runs another tab is checking", () => {
  it("never counts this tab's own run, through its finish, a retry and a stop", async () => {
    const run = savedRun(["AB12CDE", "UN51NSD", "LP08SED", "MT15EXP"]);
    await store.saveRun(run);
    fakeUpstream({ latencyMs: 5 });
    const { seen } = watchElsewhere();

    const first = await startSession(services, run.id);
    await expect(first.ended).resolves.toBe("finished");
    await anotherLook();
    await anotherLook();

    const retry = await startSession(services, run.id, ["MT15EXP"]);
    await anotherLook();
    await expect(retry.ended).resolves.toBe("finished");
    await anotherLook();
    await anotherLook();

    const stopped = await startSession(services, run.id, ["LP08SED"]);
    stopped.cancel();
    await stopped.ended;
    await anotherLook();
    await anotherLook();

    expect(seen.filter((ids) => ids.includes(run.id))).toEqual([]);
  });

  it("names a run whose lock another tab holds, and forgets it once that tab lets go", async () => {
    const other = locks.tab();
    let letGo = () => {};
    const holding = other.request(
      "vics-fleet-run:run-1",
      { ifAvailable: true },
      () => new Promise<void>((resolve) => (letGo = resolve)),
    );
    const { hook } = watchElsewhere();
    await waitFor(() => expect([...hook.result.current]).toEqual(["run-1"]));
    letGo();
    await holding;
    await waitFor(() => expect([...hook.result.current]).toEqual([]));
  });
});
