// The list being prepared, before it becomes a run: the table read from the paste or file, the
// chosen registration column and the rows as the user has fixed or excluded them.
import type { SourceTable, StoredDraft } from "./fleet-types.ts";
import { guessRegistrationColumn } from "./parse/detect-column.ts";
import { addedRow, prepareRows } from "./parse/prepare-rows.ts";

/** The same shape as it is kept across a reload. */
export type ListDraft = StoredDraft;

/** A new draft, with the registration column guessed (the first when nothing looks like one). */
export function draftFor(table: SourceTable, column?: number): ListDraft {
  const chosen = column ?? guessRegistrationColumn(table) ?? 0;
  return { table, column: chosen, ...prepareRows(table, chosen) };
}

/**
 * The draft read by another registration column: the list's rows start again from the table,
 * the vehicles the user added stay (checked again, with the new number of other columns).
 */
export function draftWithColumn(draft: ListDraft, column: number): ListDraft {
  const next = draftFor(draft.table, column);
  const added = draft.rows
    .filter((row) => row.added)
    .map((row) => ({
      ...addedRow([], row.submitted, next.extraColumns.length),
      line: row.line,
    }));
  return { ...next, rows: [...next.rows, ...added] };
}
