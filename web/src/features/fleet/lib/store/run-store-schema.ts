// The fleet runs' IndexedDB schema. A run's rows (up to 100,000) live apart from its summary so
// that listing runs never loads them. Results are saved as the run's batches arrive, one record
// per batch keyed [runId, batch]: Chromium spends ~80 µs on each record written, so a record
// per result (schema 2) made saving 100,000 answers 8 s of a 100,000-row run, and one per batch
// makes it about 1 s. A later batch's result for a vehicle replaces an earlier one when the run
// is loaded, and a run's batches are one key range. Each batch's registrations are kept apart too,
// so that listing runs can count the vehicles answered without loading every answer.
import type {
  DBSchema,
  IDBPDatabase,
  IDBPObjectStore,
  IDBPTransaction,
  StoreNames,
} from "idb";
import type { SavedRun, StoredDraft, VehicleResult } from "../fleet-types.ts";

/** Raise it, and add a step to upgradeRunSchema, whenever the stores or indexes change. */
export const RUN_SCHEMA_VERSION = 3;

/** Results per record when older results are moved into batches (a run's own batches are its chunks). */
const MOVED_BATCH_SIZE = 1000;

export interface RunRecord extends Omit<SavedRun, "rows"> {
  rowCount: number;
}

export interface RowsRecord {
  runId: string;
  rows: SavedRun["rows"];
}

/** One batch of a run's results, numbered from 1 in the order they were saved. */
export interface ResultBatchRecord {
  runId: string;
  batch: number;
  results: VehicleResult[];
}

/** The registrations of the batch with the same key. */
export interface AnsweredRecord {
  runId: string;
  batch: number;
  registrations: string[];
}

/** Schema 1 and 2 kept a record per result, keyed [runId, registration]. */
interface ResultRecordV2 extends VehicleResult {
  runId: string;
}

/**
 * The list being prepared, before it becomes a run: one per user, keyed by draftSlot(their id)
 * ("current" before sign-in existed).
 */
export interface DraftRecord {
  id: string;
  draft: StoredDraft;
}

export interface FleetRunsSchema extends DBSchema {
  runs: { key: string; value: RunRecord };
  rows: { key: string; value: RowsRecord };
  resultBatches: { key: [string, number]; value: ResultBatchRecord };
  answered: { key: [string, number]; value: AnsweredRecord };
  drafts: { key: string; value: DraftRecord };
}

/** The schema as versions 1 and 2 had it, for the steps that upgrade from them. */
interface FleetRunsSchemaV2 extends DBSchema {
  results: { key: [string, string]; value: ResultRecordV2 };
}

type UpgradeTransaction = IDBPTransaction<
  FleetRunsSchema,
  StoreNames<FleetRunsSchema>[],
  "versionchange"
>;

/**
 * Brings the database from `oldVersion` up to RUN_SCHEMA_VERSION inside IndexedDB's upgrade
 * transaction. A step that fails aborts the upgrade: the database stays as it was, and opening
 * it fails (the page then says runs cannot be saved).
 */
export async function upgradeRunSchema(
  db: IDBPDatabase<FleetRunsSchema>,
  oldVersion: number,
  transaction: UpgradeTransaction,
): Promise<void> {
  try {
    await upgradeSteps(db, oldVersion, transaction);
  } catch {
    try {
      transaction.abort();
    } catch {
      // Already aborted by the request that failed.
    }
  }
}

async function upgradeSteps(
  db: IDBPDatabase<FleetRunsSchema>,
  oldVersion: number,
  transaction: UpgradeTransaction,
): Promise<void> {
  const legacy = db as unknown as IDBPDatabase<FleetRunsSchemaV2>;
  if (oldVersion < 1) {
    db.createObjectStore("runs", { keyPath: "id" });
    db.createObjectStore("rows", { keyPath: "runId" });
    legacy.createObjectStore("results", {
      keyPath: ["runId", "registration"],
    });
  }
  if (oldVersion < 2) {
    // The list being prepared, so a reload during "Check your list" loses nothing.
    db.createObjectStore("drafts", { keyPath: "id" });
  }
  if (oldVersion < 3) {
    const batches = db.createObjectStore("resultBatches", {
      keyPath: ["runId", "batch"],
    });
    const answered = db.createObjectStore("answered", {
      keyPath: ["runId", "batch"],
    });
    const results = (
      transaction as unknown as IDBPTransaction<
        FleetRunsSchemaV2,
        ["results"],
        "versionchange"
      >
    ).objectStore("results");
    await moveResultsToBatches(results, batches, answered);
    legacy.deleteObjectStore("results");
  }
}

/** Schema 2's results, a record each, into schema 3's batches (runs keep every answer). */
async function moveResultsToBatches(
  from: IDBPObjectStore<
    FleetRunsSchemaV2,
    ["results"],
    "results",
    "versionchange"
  >,
  batches: IDBPObjectStore<
    FleetRunsSchema,
    StoreNames<FleetRunsSchema>[],
    "resultBatches",
    "versionchange"
  >,
  answered: IDBPObjectStore<
    FleetRunsSchema,
    StoreNames<FleetRunsSchema>[],
    "answered",
    "versionchange"
  >,
): Promise<void> {
  const byRun = new Map<string, VehicleResult[]>();
  for (const { runId, ...result } of await from.getAll()) {
    const results = byRun.get(runId) ?? [];
    results.push(result);
    byRun.set(runId, results);
  }
  const writes: Promise<unknown>[] = [];
  for (const [runId, results] of byRun) {
    for (let start = 0; start < results.length; start += MOVED_BATCH_SIZE) {
      const batch = start / MOVED_BATCH_SIZE + 1;
      const part = results.slice(start, start + MOVED_BATCH_SIZE);
      writes.push(
        batches.put({ runId, batch, results: part }),
        answered.put({
          runId,
          batch,
          registrations: part.map((result) => result.registration),
        }),
      );
    }
  }
  await Promise.all(writes);
}

/** Every batch of one run: keys [runId, anything] (an array sorts after every number and string). */
export function runResultsRange(runId: string): IDBKeyRange {
  return IDBKeyRange.bound([runId], [runId, []]);
}
