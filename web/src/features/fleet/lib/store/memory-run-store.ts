// Runs kept in this page's memory, for a browser that lets web pages store nothing: a list can
// still be checked, but a reload or a closed tab loses it (the page says so).
import type { SavedRun, StoredDraft, VehicleResult } from "../fleet-types.ts";
import { UNOWNED_DRAFT_SLOT } from "./draft-queries.ts";
import type { RunListing, RunStore } from "./run-store.ts";

export function memoryRunStore(): RunStore {
  const runs = new Map<string, SavedRun>();
  const results = new Map<string, Map<string, VehicleResult>>();
  const drafts = new Map<string, StoredDraft>();
  const missing = (id: string) =>
    new Error(`No saved run ${id}: it may have been deleted.`);

  return {
    async saveRun(run) {
      runs.set(run.id, structuredClone(run));
      if (!results.has(run.id)) results.set(run.id, new Map());
    },
    async updateRun(id, patch) {
      const run = runs.get(id);
      if (!run) throw missing(id);
      runs.set(id, { ...run, ...structuredClone(patch), id });
    },
    async saveResults(runId, batch) {
      const run = runs.get(runId);
      const saved = results.get(runId);
      if (!run || !saved) throw missing(runId);
      for (const result of batch)
        saved.set(result.registration, structuredClone(result));
      runs.set(runId, { ...run, updatedAt: new Date().toISOString() });
    },
    async loadRun(id) {
      const run = runs.get(id);
      if (!run) return undefined;
      return {
        run: structuredClone(run),
        results: new Map(structuredClone([...(results.get(id) ?? [])])),
      };
    },
    async listRuns() {
      return [...runs.values()]
        .map((run): RunListing => ({
          id: run.id,
          ownerId: run.ownerId,
          name: run.name,
          createdAt: run.createdAt,
          updatedAt: run.updatedAt,
          status: run.status,
          rows: run.rows.length,
          answered: results.get(run.id)?.size ?? 0,
          checkCompliance: run.checkCompliance,
        }))
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    },
    async deleteRun(id) {
      runs.delete(id);
      results.delete(id);
    },
    async saveDraft(next, slot = UNOWNED_DRAFT_SLOT) {
      drafts.set(slot, structuredClone(next));
    },
    async loadDraft(slot = UNOWNED_DRAFT_SLOT) {
      const draft = drafts.get(slot);
      return draft && structuredClone(draft);
    },
    async clearDraft(slot = UNOWNED_DRAFT_SLOT) {
      drafts.delete(slot);
    },
    close() {},
  };
}
