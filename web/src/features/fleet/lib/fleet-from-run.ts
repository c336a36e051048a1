// A list as a fleet to save, from a finished fleet check or straight from the list's review:
// its kept, valid vehicles, each once (the first row of a repeated vehicle gives its cells),
// with the user's own columns in their order.
import type { NewSavedFleet } from "../api/saved-fleets-api.ts";
import type { FleetRow } from "./fleet-types.ts";

/** A list to save as a fleet: a run (SavedRun) is one; a reviewed draft gives its parts. */
export interface ListToSave {
  /** The file's name or "Pasted list". */
  name: string;
  rows: readonly FleetRow[];
  extraColumns: readonly string[];
}

/** "Fleet list November.xlsx" → "Fleet list November". */
export function fleetNameFor(runName: string): string {
  return runName.replace(/\.(csv|tsv|txt|xlsx)$/i, "").trim() || runName;
}

export function fleetFromList(list: ListToSave, name: string): NewSavedFleet {
  return { name, ...fleetList(list.rows, list.extraColumns) };
}

/** A list's kept, valid vehicles, each once, with a cell for each of `columns`. */
export function fleetList(
  rows: readonly FleetRow[],
  columns: readonly string[],
): Omit<NewSavedFleet, "name"> {
  const seen = new Set<string>();
  const vehicles: NewSavedFleet["vehicles"] = [];
  for (const row of rows) {
    if (!row.registration || row.excluded || seen.has(row.registration))
      continue;
    seen.add(row.registration);
    const cells = columns.map((_, index) => row.extra[index] ?? "");
    vehicles.push({ registration: row.registration, cells });
  }
  return { columns: [...columns], vehicles };
}
