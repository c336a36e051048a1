// Test support for run sessions: a saved list as the page saves it, in a store.
import type { FleetRow, SavedRun, VehicleResult } from "../lib/fleet-types.ts";
import { openRunStore, type RunStore } from "../lib/store/run-store.ts";

/** A list as the page saves it: valid rows, a duplicate, an invalid row and an excluded one. */
export function savedRun(
  registrations: readonly string[],
  checkCompliance = false,
): SavedRun {
  const rows: FleetRow[] = registrations.map((registration, index) => ({
    line: index + 2,
    submitted: registration,
    extra: [],
    registration,
  }));
  rows.push(
    {
      line: 900,
      submitted: registrations[0] ?? "",
      extra: [],
      registration: registrations[0],
    },
    {
      line: 901,
      submitted: "??",
      extra: [],
      invalid: { reason: "Not a registration", suggestions: [] },
    },
    {
      line: 902,
      submitted: "EX26SON",
      extra: [],
      registration: "EX26SON",
      excluded: true,
    },
  );
  return {
    id: "run-1",
    name: "Fleet.csv",
    createdAt: "2026-01-05T09:00:00.000Z",
    updatedAt: "2026-01-05T09:00:00.000Z",
    status: "running",
    checkCompliance,
    registrationColumn: "Registration",
    extraColumns: [],
    rows,
  };
}

export async function storeWith(
  run: SavedRun,
  name = "vics-fleet",
): Promise<RunStore> {
  const store = await openRunStore(name);
  await store.saveRun(run);
  return store;
}

/** The saved results as batches, for expectOneOutcomeEach. */
export async function savedResults(
  store: RunStore,
): Promise<VehicleResult[][]> {
  const loaded = await store.loadRun("run-1");
  return [[...(loaded?.results.values() ?? [])]];
}
