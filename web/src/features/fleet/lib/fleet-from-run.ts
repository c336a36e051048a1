// A list as a fleet to save, from a finished fleet check or straight from the list's review:
// its kept, valid vehicles, each once (the first row of a repeated vehicle gives its cells),
// with the user's own columns in their order.
import type { NewSavedFleet } from "../api/saved-fleets-api.ts";
import type { FleetRow } from "./fleet-types.ts";
import { rowInSentence, rowsWords } from "./row-words.ts";

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

/** The most row numbers the words of the rows left out name; the rest are counted. */
const NAMED_ROWS = 5;

/**
 * The list's rows with no valid registration, which a saved fleet leaves out, in words: "1
 * invalid row was left out (row 901)", "20 invalid rows were left out (rows 3, 17, 40, 52, 61
 * and 15 more)"; undefined when there were none.
 */
export function invalidRowsLeftOut(
  rows: readonly FleetRow[],
): string | undefined {
  const lines = rows
    .filter((row) => !row.registration && !row.added)
    .map((row) => row.line)
    .sort((a, b) => a - b);
  if (lines.length === 0) return undefined;
  const [only] = lines;
  if (only !== undefined && lines.length === 1)
    return `1 invalid row was left out (${rowInSentence(only)})`;
  const count = lines.length.toLocaleString("en-GB");
  return `${count} invalid rows were left out (${rowsWords(lines, NAMED_ROWS)})`;
}
