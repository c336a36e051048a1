// What a user leaves of the fleet check in this browser, for the app's sign-out: their saved
// runs (with every result) and the list they were preparing. Staff share computers, so signing
// out removes them, after saying how many. Runs and a list kept before sign-in existed belong
// to nobody and are never shown: they go at the first sign-out too.
import { browserFleetServices, type FleetServices } from "./fleet-services.ts";
import { dropSession } from "./run-registry.ts";
import { UNOWNED_DRAFT_SLOT, draftSlot } from "./store/draft-queries.ts";
import type { RunListing, RunStore } from "./store/run-store.ts";

export interface SavedFleetChecks {
  /** Saved runs to remove. */
  runs: number;
  /** Whether a list being prepared is kept. */
  list: boolean;
}

export interface SavedFleetChecksOf {
  summary(userId: string): Promise<SavedFleetChecks>;
  /** Stops the user's runs going in this tab and deletes them, their results and their list. */
  clear(userId: string): Promise<void>;
}

const removable = (run: RunListing, userId: string) =>
  run.ownerId === userId || run.ownerId === undefined;

async function lists(store: RunStore, userId: string): Promise<boolean> {
  const [own, unowned] = await Promise.all([
    store.loadDraft(draftSlot(userId)),
    store.loadDraft(UNOWNED_DRAFT_SLOT),
  ]);
  return own !== undefined || unowned !== undefined;
}

export function savedFleetChecksOf(
  services: FleetServices,
): SavedFleetChecksOf {
  return {
    async summary(userId) {
      const { store } = await services.openStore();
      const runs = (await store.listRuns()).filter((run) =>
        removable(run, userId),
      );
      return { runs: runs.length, list: await lists(store, userId) };
    },
    async clear(userId) {
      const { store } = await services.openStore();
      for (const run of await store.listRuns()) {
        if (!removable(run, userId)) continue;
        dropSession(run.id);
        await store.deleteRun(run.id);
      }
      await store.clearDraft(draftSlot(userId));
      await store.clearDraft(UNOWNED_DRAFT_SLOT);
    },
  };
}

export const savedFleetChecks = savedFleetChecksOf(browserFleetServices);
