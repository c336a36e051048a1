// Saved fleet runs in the browser (IndexedDB through idb): the run, its input rows and its
// results, written batch by batch as they arrive, so a reload, a closed tab or a crash loses
// nothing already answered.
import { openDB, type IDBPDatabase } from "idb";
import type {
  RunStatus,
  SavedRun,
  StoredDraft,
  VehicleResult,
} from "../fleet-types.ts";
import { draftQueries } from "./draft-queries.ts";
import {
  answeredCount,
  resultQueries,
  resultsByRegistration,
} from "./result-queries.ts";
import {
  RUN_SCHEMA_VERSION,
  runResultsRange,
  upgradeRunSchema,
  type FleetRunsSchema,
  type RunRecord,
} from "./run-store-schema.ts";

/** A run as the list of previous runs shows it, without its rows or results. */
export interface RunListing {
  id: string;
  /** Who made it; absent for a run saved before sign-in existed. */
  ownerId?: string;
  name: string;
  createdAt: string;
  updatedAt: string;
  status: RunStatus;
  /** Rows of the user's list. */
  rows: number;
  /** Registrations with a saved result. */
  answered: number;
  checkCompliance: boolean;
}

export interface LoadedRun {
  run: SavedRun;
  /** By registration. */
  results: Map<string, VehicleResult>;
}

export type RunPatch = Partial<Omit<SavedRun, "id" | "createdAt">>;

export interface RunStore {
  saveRun(run: SavedRun): Promise<void>;
  updateRun(id: string, patch: RunPatch): Promise<void>;
  /**
   * One transaction and one record per batch; a result replaces an earlier one for the same
   * registration.
   */
  saveResults(runId: string, results: readonly VehicleResult[]): Promise<void>;
  loadRun(id: string): Promise<LoadedRun | undefined>;
  /** Newest first. */
  listRuns(): Promise<RunListing[]>;
  /** The run, its rows and its results. */
  deleteRun(id: string): Promise<void>;
  /**
   * The list being prepared, kept so a reload loses nothing: one per slot (draft-queries.ts),
   * which the store of one user's runs (owned-run-store.ts) chooses.
   */
  saveDraft(draft: StoredDraft, slot?: string): Promise<void>;
  loadDraft(slot?: string): Promise<StoredDraft | undefined>;
  clearDraft(slot?: string): Promise<void>;
  close(): void;
}

/** The browser keeps no data for this page (no IndexedDB, as in some private windows). */
export class RunStoreUnavailableError extends Error {
  constructor(reason: string, cause?: unknown) {
    super(`Runs cannot be saved in this browser: ${reason}`, { cause });
    this.name = "RunStoreUnavailableError";
  }
}

export async function openRunStore(dbName = "vics-fleet"): Promise<RunStore> {
  if (typeof indexedDB === "undefined") {
    throw new RunStoreUnavailableError(
      "it does not let web pages store data (private browsing can turn this off). You can still check a list, but keep this tab open until the run ends.",
    );
  }
  let db: IDBPDatabase<FleetRunsSchema>;
  try {
    db = await openDB<FleetRunsSchema>(dbName, RUN_SCHEMA_VERSION, {
      upgrade: (database, oldVersion, _newVersion, transaction) =>
        void upgradeRunSchema(database, oldVersion, transaction),
      // Another tab needs a newer schema: let it have the database.
      blocking: () => db.close(),
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new RunStoreUnavailableError(
      `its storage refused to open (${reason}). You can still check a list, but keep this tab open until the run ends.`,
      error,
    );
  }
  return runStore(db);
}

function runRecord(run: SavedRun): RunRecord {
  const { rows, ...summary } = run;
  return { ...summary, rowCount: rows.length };
}

function runStore(db: IDBPDatabase<FleetRunsSchema>): RunStore {
  return {
    async saveRun(run) {
      const tx = db.transaction(["runs", "rows"], "readwrite");
      await Promise.all([
        tx.objectStore("runs").put(runRecord(run)),
        tx.objectStore("rows").put({ runId: run.id, rows: run.rows }),
        tx.done,
      ]);
    },

    async updateRun(id, patch) {
      const tx = db.transaction(["runs", "rows"], "readwrite");
      const runs = tx.objectStore("runs");
      const current = await runs.get(id);
      if (!current)
        throw new Error(`No saved run ${id}: it may have been deleted.`);
      const { rows, ...summary } = patch;
      const writes: Promise<unknown>[] = [
        runs.put({
          ...current,
          ...summary,
          id,
          rowCount: rows?.length ?? current.rowCount,
        }),
      ];
      if (rows) writes.push(tx.objectStore("rows").put({ runId: id, rows }));
      await Promise.all([...writes, tx.done]);
    },

    async loadRun(id) {
      const tx = db.transaction(["runs", "rows", "resultBatches"]);
      const [summary, rows, batches] = await Promise.all([
        tx.objectStore("runs").get(id),
        tx.objectStore("rows").get(id),
        tx.objectStore("resultBatches").getAll(runResultsRange(id)),
      ]);
      if (!summary) return undefined;
      const { rowCount: _rowCount, ...run } = summary;
      return {
        run: { ...run, rows: rows?.rows ?? [] },
        results: resultsByRegistration(batches),
      };
    },

    async listRuns() {
      const tx = db.transaction(["runs", "answered"]);
      const summaries = await tx.objectStore("runs").getAll();
      const answered = await Promise.all(
        summaries.map(async (run) =>
          answeredCount(
            await tx.objectStore("answered").getAll(runResultsRange(run.id)),
          ),
        ),
      );
      return summaries
        .map((run, index) => ({
          id: run.id,
          ownerId: run.ownerId,
          name: run.name,
          createdAt: run.createdAt,
          updatedAt: run.updatedAt,
          status: run.status,
          rows: run.rowCount,
          answered: answered[index] ?? 0,
          checkCompliance: run.checkCompliance,
        }))
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    },

    async deleteRun(id) {
      const tx = db.transaction(
        ["runs", "rows", "resultBatches", "answered"],
        "readwrite",
      );
      await Promise.all([
        tx.objectStore("runs").delete(id),
        tx.objectStore("rows").delete(id),
        tx.objectStore("resultBatches").delete(runResultsRange(id)),
        tx.objectStore("answered").delete(runResultsRange(id)),
        tx.done,
      ]);
    },

    ...resultQueries(db),
    ...draftQueries(db),
    close: () => db.close(),
  };
}
