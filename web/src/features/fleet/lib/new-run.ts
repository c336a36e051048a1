// A run made from the list the user prepared, ready to be saved and started.
import type { SavedRun } from "./fleet-types.ts";
import type { ListDraft } from "./list-draft.ts";

/** A random id; crypto.randomUUID needs a secure context, which a LAN address may not be. */
export function newRunId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

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
