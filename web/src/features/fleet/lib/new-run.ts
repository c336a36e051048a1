// A run made from the list the user prepared, ready to be saved and started.
import { randomHex } from "../../../lib/random-hex.ts";
import type { SavedRun } from "./fleet-types.ts";
import type { ListDraft } from "./list-draft.ts";

/** A random id of 32 hex characters. */
export const newRunId = (): string => randomHex(16);

export function newRun(
  draft: ListDraft,
  checkCompliance: boolean,
  now: Date = new Date(),
): SavedRun {
  const at = now.toISOString();
  return {
    id: newRunId(),
    name: draft.table.source,
    createdAt: at,
    updatedAt: at,
    status: "running",
    checkCompliance,
    registrationColumn: draft.registrationColumn,
    registrationColumnIndex: draft.column,
    extraColumns: draft.extraColumns,
    rows: draft.rows,
  };
}
