// One user's view of the runs saved in this browser. Staff share computers: a run belongs to
// whoever made it, and another user (or nobody, for runs saved before sign-in existed) can
// neither list it, open it nor see the list they were preparing. Changes go by run id, and the
// ids reach the page only through this view (listRuns, loadRun, saveRun), so they pass through
// without a look-up each (loading a 100,000-row run's results per status change would cost
// seconds).
import type { RunStore } from "./run-store.ts";
import { draftSlot } from "./draft-queries.ts";

export function ownedRunStore(store: RunStore, ownerId: string): RunStore {
  return {
    saveRun: (run) => store.saveRun({ ...run, ownerId }),
    updateRun: (id, patch) => store.updateRun(id, patch),
    saveResults: (runId, results) => store.saveResults(runId, results),
    async loadRun(id) {
      const loaded = await store.loadRun(id);
      return loaded?.run.ownerId === ownerId ? loaded : undefined;
    },
    async listRuns() {
      return (await store.listRuns()).filter((run) => run.ownerId === ownerId);
    },
    deleteRun: (id) => store.deleteRun(id),
    saveDraft: (draft) => store.saveDraft(draft, draftSlot(ownerId)),
    loadDraft: () => store.loadDraft(draftSlot(ownerId)),
    clearDraft: () => store.clearDraft(draftSlot(ownerId)),
    close: () => store.close(),
  };
}
