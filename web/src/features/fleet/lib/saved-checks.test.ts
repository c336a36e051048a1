import "fake-indexeddb/auto";
import { IDBFactory } from "fake-indexeddb";
import { beforeEach, describe, expect, it } from "vitest";
import { apiFleetClient } from "../api/fleet-client.ts";
import { savedRun } from "../testing/session.ts";
import type { FleetServices } from "./fleet-services.ts";
import type { StoredDraft } from "./fleet-types.ts";
import { inThreadParseWorker } from "./parse/in-thread-parse-worker.ts";
import {
  isLive,
  resetSessions,
  sessionFor,
  startSession,
} from "./run-registry.ts";
import { savedFleetChecksOf } from "./saved-checks.ts";
import { ownedRunStore } from "./store/owned-run-store.ts";
import { openRunStore, type RunStore } from "./store/run-store.ts";
import { fakeUpstream } from "../testing/upstream.ts";
import { delay } from "msw";

const draft: StoredDraft = {
  table: { source: "list.csv", header: null, rows: [], columnCount: 1 },
  column: 0,
  rows: [],
  extraColumns: [],
  registrationColumn: null,
};

let store: RunStore;
let services: FleetServices;

beforeEach(async () => {
  globalThis.indexedDB = new IDBFactory();
  store = await openRunStore();
  services = {
    openStore: async () => ({ store }),
    client: apiFleetClient,
    parseWorker: inThreadParseWorker,
  };
  return () => {
    resetSessions();
    store.close();
  };
});

async function saveFor(ownerId: string | undefined, id: string) {
  const run = { ...savedRun(["AB12CDE", "UN51NSD"]), id };
  if (ownerId) await ownedRunStore(store, ownerId).saveRun(run);
  else await store.saveRun(run);
}

describe("what signing out removes of the fleet check", () => {
  it("counts the user's saved runs and list, and the ones nobody owns, never another user's", async () => {
    await saveFor("ann", "ann-1");
    await saveFor("ann", "ann-2");
    await saveFor("bo", "bo-1");
    await saveFor(undefined, "old-1");
    await ownedRunStore(store, "ann").saveDraft(draft);
    const saved = savedFleetChecksOf(services);
    expect(await saved.summary("ann")).toEqual({ runs: 3, list: true });
    expect(await saved.summary("cy")).toEqual({ runs: 1, list: false });
  });

  it("removes them, with every result and the list, and leaves another user's alone", async () => {
    await saveFor("ann", "ann-1");
    await saveFor("bo", "bo-1");
    await saveFor(undefined, "old-1");
    await ownedRunStore(store, "ann").saveDraft(draft);
    await ownedRunStore(store, "bo").saveDraft(draft);

    await savedFleetChecksOf(services).clear("ann");
    expect((await store.listRuns()).map((run) => run.id)).toEqual(["bo-1"]);
    expect(await store.loadRun("ann-1")).toBeUndefined();
    expect(await ownedRunStore(store, "ann").loadDraft()).toBeUndefined();
    expect(await ownedRunStore(store, "bo").loadDraft()).toEqual(draft);
  });

  it("stops a run of the user's that is going in this tab before removing it", async () => {
    // Never answered: the run is still going when the user signs out.
    fakeUpstream({
      script: async () => {
        await delay("infinite");
        return undefined;
      },
    });
    await saveFor("ann", "ann-1");
    await startSession(
      {
        ...services,
        openStore: async () => ({ store: ownedRunStore(store, "ann") }),
      },
      "ann-1",
    );
    expect(isLive(sessionFor("ann-1"))).toBe(true);
    await savedFleetChecksOf(services).clear("ann");
    expect(sessionFor("ann-1")).toBeUndefined();
    expect(await store.loadRun("ann-1")).toBeUndefined();
  });
});
