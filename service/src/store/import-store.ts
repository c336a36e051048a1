// What an import asks of a store (docs/decisions/040-imports.md): stage a file's rows, then
// apply them in ONE transaction that also records the import, or roll it all back (a dry
// run, a refusal). Staging lives in the session's own temporary tables, so a crash at any
// point leaves the database as it was.
import type { ImportKind, ImportRow } from "@vics/shared/import/rows";

export type ImportMode = "upsert" | "snapshot";

/** One refused row's problem; a row with two bad cells has two. */
export interface RejectLine {
  line: number;
  column: string;
  value: string;
  reason: string;
}

export interface ImportCounts {
  /** Data rows read from the file, accepted or not. */
  rows: number;
  added: number;
  changed: number;
  unchanged: number;
  removed: number;
  /** Rows refused (a row counts once, however many of its cells are wrong). */
  rejected: number;
}

/** A few of each, named as an operator finds them in the file ("AB12CDE POL-1"). */
export interface ImportExamples {
  added: string[];
  changed: string[];
  removed: string[];
  /**
   * Tax and MOT records the file would have changed or removed, kept because a live register
   * gave them after the file's `--as-of` (issue 35): counted as unchanged.
   */
  kept: string[];
  keptCount: number;
}

export interface ImportFile {
  name: string;
  sha256: string;
  bytes: number;
}

export interface ImportPlan {
  mode: ImportMode;
  /** A snapshot that would remove more than this share of the records is refused. */
  maxDeletePct: number;
  force: boolean;
  dryRun: boolean;
  file: ImportFile;
  runBy: string;
  startedAt: Date;
  /** When the file's data was current at its source (`--as-of`), kept as the source's freshness. */
  dataAsOf: string;
  /** Rows read, accepted or not (the rejects are staged alongside). */
  rows: number;
  now: () => Date;
}

/**
 * The kind of fact a live register also gives (issue 35). A row of it is kept out when the
 * register fetched the vehicle's fact after the file's `--as-of` and the row would disagree with
 * it (`disagrees`: SQL over the planned row `s`), as is a snapshot's removal; a row or removal
 * that applies clears the register's mark, the newest fact now being the file's.
 */
export interface RegisterFact {
  kind: "tax" | "mot";
  disagrees: string;
}

export type ImportOutcome = "applied" | "refused" | "already-imported";

export interface ApplyResult {
  /** "dry-run" is never recorded: it changed nothing and is not an import. */
  outcome: "applied" | "dry-run" | "refused";
  /** The import's row in `imports`; none for a dry run. */
  importId?: number;
  counts: ImportCounts;
  examples: ImportExamples;
  /** Why it was refused, in words. */
  reason?: string;
}

export interface ImportRecord {
  id: number;
  kind: ImportKind;
  mode: ImportMode;
  file: ImportFile;
  runBy: string;
  /** When its data was current at its source (`--as-of`); null for an import that applied nothing. */
  dataAsOf: string | null;
  startedAt: string;
  finishedAt: string;
  outcome: ImportOutcome;
  message: string | null;
  counts: ImportCounts;
}

export type NewImportRecord = Omit<ImportRecord, "id">;

export interface StagedRow<K extends ImportKind> {
  line: number;
  row: ImportRow<K>;
}

export interface ImportStaging<K extends ImportKind> {
  stage(rows: readonly StagedRow<K>[]): Promise<void>;
  reject(lines: readonly RejectLine[]): Promise<void>;
  /** Checks the staged rows against each other and the store, then applies or refuses. */
  apply(plan: ImportPlan): Promise<ApplyResult>;
  /** Every reject of this file, in line order: after apply, with the contradictions too. */
  rejects(): AsyncIterable<RejectLine>;
  close(): Promise<void>;
}

export interface ImportStore {
  startImport<K extends ImportKind>(kind: K): Promise<ImportStaging<K>>;
  /** The import that applied this file to this kind, if one did. */
  appliedImport(
    kind: ImportKind,
    sha256: string,
  ): Promise<ImportRecord | undefined>;
  /**
   * Records an import that applied nothing (refused before staging, already imported), with
   * the rejects that say why, for the data page.
   */
  recordImport(
    record: NewImportRecord,
    rejects?: readonly RejectLine[],
  ): Promise<number>;
  /** Newest first. */
  listImports(limit: number): Promise<ImportRecord[]>;
  findImport(importId: number): Promise<ImportRecord | undefined>;
  /** The refused rows kept for an import (the first REJECTS_KEPT), in line order. */
  importRejects(importId: number): Promise<RejectLine[]>;
}

/** meta.fleet once real data is in: the sandbox's plates no longer answer (decision 040). */
export const IMPORTED_FLEET = "imported";

/** The rejects kept in the database per import for the data page; the file has them all. */
export const REJECTS_KEPT = 10_000;

/** How many examples of each change a report shows. */
export const EXAMPLES_SHOWN = 5;

export const NO_COUNTS: ImportCounts = {
  rows: 0,
  added: 0,
  changed: 0,
  unchanged: 0,
  removed: 0,
  rejected: 0,
};

/** The `imports` table's columns an import fills, in the order `importRowValues` gives them. */
export const IMPORT_ROW_COLUMNS = [
  "kind",
  "mode",
  "file_name",
  "sha256",
  "bytes",
  "run_by",
  "data_as_of",
  "started_at",
  "finished_at",
  "outcome",
  "message",
  "rows_read",
  "added",
  "changed",
  "unchanged",
  "removed",
  "rejected",
] as const;

export function importRowValues(record: NewImportRecord) {
  const { counts, file } = record;
  return [
    record.kind,
    record.mode,
    file.name,
    file.sha256,
    file.bytes,
    record.runBy,
    record.dataAsOf,
    record.startedAt,
    record.finishedAt,
    record.outcome,
    record.message,
    counts.rows,
    counts.added,
    counts.changed,
    counts.unchanged,
    counts.removed,
    counts.rejected,
  ];
}

/** An instant as either engine returns it: text (SQLite) or a Date (pg's timestamptz). */
const instant = (value: unknown): string =>
  value instanceof Date ? value.toISOString() : String(value);

/** A row of `imports`, from either engine (pg returns bigint columns as text). */
export function importRecordFromRow(
  row: Record<string, unknown>,
): ImportRecord {
  return {
    id: Number(row.id),
    kind: String(row.kind) as ImportKind,
    mode: String(row.mode) as ImportMode,
    file: {
      name: String(row.file_name),
      sha256: String(row.sha256),
      bytes: Number(row.bytes),
    },
    runBy: String(row.run_by),
    dataAsOf: row.data_as_of === null ? null : instant(row.data_as_of),
    startedAt: instant(row.started_at),
    finishedAt: instant(row.finished_at),
    outcome: String(row.outcome) as ImportOutcome,
    message: row.message === null ? null : String(row.message),
    counts: {
      rows: Number(row.rows_read),
      added: Number(row.added),
      changed: Number(row.changed),
      unchanged: Number(row.unchanged),
      removed: Number(row.removed),
      rejected: Number(row.rejected),
    },
  };
}

/** A row of a file's rejects, from either engine. */
export const rejectFromRow = (row: Record<string, unknown>): RejectLine => ({
  line: Number(row.line),
  column: String(row.column_name),
  value: String(row.value),
  reason: String(row.reason),
});

/** The message of a repeated key, the same from both engines. */
export const repeatedKeyReason = (
  noun: string,
  label: string,
  lines: readonly number[],
) =>
  `The ${noun} ${label} is on lines ${lines.join(", ")}: a file may hold each ${noun} once. None of those lines was imported.`;
