// A run's results in the runs' database: saved a batch at a time, one record per batch (see
// run-store-schema.ts for why), and read back in the order they were saved.
import type { IDBPDatabase } from "idb";
import type { VehicleResult } from "../fleet-types.ts";
import {
  runResultsRange,
  type AnsweredRecord,
  type FleetRunsSchema,
  type ResultBatchRecord,
} from "./run-store-schema.ts";

export function resultQueries(db: IDBPDatabase<FleetRunsSchema>) {
  return {
    async saveResults(
      runId: string,
      results: readonly VehicleResult[],
    ): Promise<void> {
      const tx = db.transaction(
        ["runs", "resultBatches", "answered"],
        "readwrite",
      );
      const runs = tx.objectStore("runs");
      const batches = tx.objectStore("resultBatches");
      const [run, last] = await Promise.all([
        runs.get(runId),
        batches.openKeyCursor(runResultsRange(runId), "prev"),
      ]);
      if (!run) {
        tx.abort();
        await tx.done.catch(() => undefined);
        throw new Error(`No saved run ${runId}: it may have been deleted.`);
      }
      // The run's next batch number, read in the same transaction, so two tabs never share one.
      const batch = (last?.key[1] ?? 0) + 1;
      const writes: Promise<unknown>[] = [
        runs.put({ ...run, updatedAt: new Date().toISOString() }),
        tx.done,
      ];
      if (results.length > 0)
        writes.push(
          batches.put({ runId, batch, results: [...results] }),
          tx.objectStore("answered").put({
            runId,
            batch,
            registrations: results.map((result) => result.registration),
          }),
        );
      await Promise.all(writes);
    },
  };
}

/** A run's results by registration, from its batches in the order saved: later ones win. */
export function resultsByRegistration(
  batches: readonly ResultBatchRecord[],
): Map<string, VehicleResult> {
  const results = new Map<string, VehicleResult>();
  for (const batch of batches) {
    for (const result of batch.results)
      results.set(result.registration, result);
  }
  return results;
}

/** How many vehicles a run's batches answered: one answered twice (a retry) counts once. */
export function answeredCount(batches: readonly AnsweredRecord[]): number {
  const registrations = new Set<string>();
  for (const batch of batches) {
    for (const registration of batch.registrations)
      registrations.add(registration);
  }
  return registrations.size;
}
