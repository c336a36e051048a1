// Once the user has chosen the registration column: every row of the table becomes a
// FleetRow (none dropped, invalid ones say why), and the counts shown before sending.
import {
  lookalikeRegistrations,
  normaliseRegistration,
  parseRegistration,
  REGISTRATION_MAX_LENGTH,
} from "@vics/shared";
import type { FleetRow, SourceTable } from "../fleet-types.ts";

export const NO_REGISTRATION = "No registration in this row";
/** Lookalikes offered for one row: the nearest few are the likely ones. */
const SUGGESTIONS = 3;

export interface PreparedRows {
  rows: FleetRow[];
  /** Names of the other columns, in order: the header's, or "Column 2" by position. */
  extraColumns: string[];
  /** The registration column's name, when the table has a header. */
  registrationColumn: string | null;
}

export interface InputSummary {
  rows: number;
  /** Distinct valid registrations that will be checked. */
  unique: number;
  /** Valid, included rows beyond the first of each registration: answered by that first one. */
  duplicates: number;
  /** Rows without a valid registration that are not excluded. */
  invalid: number;
  excluded: number;
  /** What to send: each unique valid included registration once, normalised, first seen first. */
  toCheck: string[];
}

function columnName(header: string[] | null, column: number): string {
  return header?.[column] || `Column ${column + 1}`;
}

/** The row checked as a registration: the user's correction when there is one, else its cell. */
function validated(row: FleetRow): FleetRow {
  const { registration: _old, invalid: _oldReason, ...rest } = row;
  const text = row.edited ?? row.submitted;
  if (text.trim() === "")
    return { ...rest, invalid: { reason: NO_REGISTRATION, suggestions: [] } };
  const parsed = parseRegistration(text);
  if (parsed.ok) return { ...rest, registration: parsed.registration };
  // Lookalikes only for registration-sized text: the search doubles with every O, 0, I or 1.
  const suggestions =
    normaliseRegistration(text).length <= REGISTRATION_MAX_LENGTH
      ? lookalikeRegistrations(text, SUGGESTIONS)
      : [];
  return { ...rest, invalid: { reason: parsed.message, suggestions } };
}

export function prepareRows(table: SourceTable, column: number): PreparedRows {
  const others = Array.from(
    { length: table.columnCount },
    (_, index) => index,
  ).filter((index) => index !== column);
  const rows = table.rows.map(({ line, cells }) =>
    validated({
      line,
      submitted: cells[column] ?? "",
      extra: others.map((index) => cells[index] ?? ""),
    }),
  );
  return {
    rows,
    extraColumns: others.map((index) => columnName(table.header, index)),
    registrationColumn: table.header ? columnName(table.header, column) : null,
  };
}

/**
 * The row with the user's correction of its registration, checked again. `submitted` stays
 * what their list said, for the export and the fix form; the correction goes in `edited` and
 * is what is checked. A still-invalid correction is kept (the form shows it) with its reason;
 * an empty one is "No registration in this row"; one back to the list's own text is no edit.
 */
export function fixRow(row: FleetRow, text: string): FleetRow {
  const { edited: _was, ...rest } = row;
  const correction = text.trim();
  return validated(
    correction === row.submitted.trim()
      ? rest
      : { ...rest, edited: correction },
  );
}

export function excludeRow(row: FleetRow, excluded: boolean): FleetRow {
  const { excluded: _was, ...rest } = row;
  return excluded ? { ...rest, excluded: true } : rest;
}

export function inputSummary(rows: readonly FleetRow[]): InputSummary {
  const toCheck = new Set<string>();
  let duplicates = 0;
  let invalid = 0;
  let excluded = 0;
  for (const row of rows) {
    if (row.excluded) excluded++;
    else if (!row.registration) invalid++;
    else if (toCheck.has(row.registration)) duplicates++;
    else toCheck.add(row.registration);
  }
  return {
    rows: rows.length,
    unique: toCheck.size,
    duplicates,
    invalid,
    excluded,
    toCheck: [...toCheck],
  };
}

/** A vehicle that several rows hold: checked once, each of those rows gets its answer. */
export interface RepeatedVehicle {
  registration: string;
  lines: number[];
}

/** The vehicles held by more than one included row, first seen first, with those rows' lines. */
export function repeatedVehicles(rows: readonly FleetRow[]): RepeatedVehicle[] {
  const lines = new Map<string, number[]>();
  for (const row of rows) {
    if (row.excluded || !row.registration) continue;
    const seen = lines.get(row.registration);
    if (seen) seen.push(row.line);
    else lines.set(row.registration, [row.line]);
  }
  return [...lines]
    .filter(([, held]) => held.length > 1)
    .map(([registration, held]) => ({ registration, lines: held }));
}

/**
 * A vehicle the user typed in at "Check your list": checked like the list's rows, numbered after
 * the last of them (the list's own line numbers never change), its other columns empty.
 */
export function addedRow(
  rows: readonly FleetRow[],
  text: string,
  extraColumns: number,
): FleetRow {
  const line = rows.reduce((last, row) => Math.max(last, row.line), 0) + 1;
  return validated({
    line,
    submitted: text.trim(),
    extra: Array.from({ length: extraColumns }, () => ""),
    added: true,
  });
}
