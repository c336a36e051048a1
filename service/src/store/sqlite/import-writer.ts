// The SQLite import (docs/decisions/040-imports.md): a file's rows are staged in this
// connection's temporary tables, then checked and applied in one write transaction that
// also keeps each changed vehicle's previous facts in vehicle_history and records the import.
// A dry run, or a refusal, rolls the transaction back; a crash leaves the file as it was.
import type { DatabaseSync, SQLInputValue } from "node:sqlite";
import type { ImportKind } from "@vics/shared/import/rows";
import {
  type ApplyResult,
  EXAMPLES_SHOWN,
  type ImportCounts,
  type ImportExamples,
  type ImportPlan,
  type ImportRecord,
  type ImportStaging,
  type ImportStore,
  type NewImportRecord,
  REJECTS_KEPT,
  type RejectLine,
  type StagedRow,
} from "../import-store.ts";
import { SQLITE_KINDS, type SqliteKind } from "./import-kinds.ts";
import { readMeta, writeMeta } from "./schema.ts";
import { KIND_SOURCE, META_KEYS } from "../data-info.ts";
import { FACT_LIST } from "./vehicle-queries.ts";

/** Staged rows go in with one statement per this many. */
const STAGE_BATCH = 500;

/** meta.fleet once real data is in: the sandbox's plates no longer answer (decision 040). */
export const IMPORTED_FLEET = "imported";

const kindOf = <K extends ImportKind>(kind: K) =>
  SQLITE_KINDS[kind] as SqliteKind<K>;

export function sqliteImportStore(db: DatabaseSync): ImportStore {
  return {
    startImport: async (kind) => startStaging(db, kind),
    appliedImport: async (kind, sha256) => {
      const row = db
        .prepare(
          "SELECT * FROM imports WHERE kind = ? AND sha256 = ? AND outcome = 'applied'",
        )
        .get(kind, sha256);
      return row && toRecord(row);
    },
    recordImport: async (record) => insertImport(db, record),
    listImports: async (limit) =>
      db
        .prepare("SELECT * FROM imports ORDER BY id DESC LIMIT ?")
        .all(limit)
        .map(toRecord),
    importRejects: async (importId) =>
      db
        .prepare(
          "SELECT line, column_name, value, reason FROM import_rejects WHERE import_id = ? ORDER BY line, rowid",
        )
        .all(importId)
        .map(toReject),
  };
}

type Row = Record<string, SQLInputValue>;

function toReject(row: Row): RejectLine {
  return {
    line: Number(row.line),
    column: String(row.column_name),
    value: String(row.value),
    reason: String(row.reason),
  };
}

function toRecord(row: Row): ImportRecord {
  return {
    id: Number(row.id),
    kind: String(row.kind) as ImportKind,
    mode: String(row.mode) as ImportRecord["mode"],
    file: {
      name: String(row.file_name),
      sha256: String(row.sha256),
      bytes: Number(row.bytes),
    },
    runBy: String(row.run_by),
    dataAsOf: row.data_as_of === null ? null : String(row.data_as_of),
    startedAt: String(row.started_at),
    finishedAt: String(row.finished_at),
    outcome: String(row.outcome) as ImportRecord["outcome"],
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

function insertImport(db: DatabaseSync, record: NewImportRecord): number {
  const { counts, file } = record;
  const { lastInsertRowid } = db
    .prepare(
      `INSERT INTO imports (kind, mode, file_name, sha256, bytes, run_by, data_as_of,
         started_at, finished_at, outcome, message, rows_read, added, changed, unchanged,
         removed, rejected)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
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
    );
  return Number(lastInsertRowid);
}

function startStaging<K extends ImportKind>(
  db: DatabaseSync,
  kind: K,
): ImportStaging<K> {
  const spec = kindOf(kind);
  const columns = ["line", ...spec.columns];
  db.exec(`
    DROP TABLE IF EXISTS temp.staged; DROP TABLE IF EXISTS temp.staged_rejects;
    DROP TABLE IF EXISTS temp.plan; DROP TABLE IF EXISTS temp.removed;
    CREATE TEMP TABLE staged (${columns.join(", ")});
    CREATE TEMP TABLE staged_rejects (line, column_name, value, reason);
    CREATE TEMP TABLE plan (${columns.join(", ")}, vehicle_id, record_id, change);
    CREATE TEMP TABLE removed (vehicle_id, record_id, label);`);
  const insertMany = (count: number) =>
    db.prepare(
      `INSERT INTO temp.staged VALUES ${Array(count)
        .fill(`(${columns.map(() => "?").join(", ")})`)
        .join(", ")}`,
    );
  const fullBatch = insertMany(STAGE_BATCH);
  const addReject = db.prepare(
    "INSERT INTO temp.staged_rejects VALUES (?, ?, ?, ?)",
  );
  return {
    async stage(rows: readonly StagedRow<K>[]) {
      for (let at = 0; at < rows.length; at += STAGE_BATCH) {
        const batch = rows.slice(at, at + STAGE_BATCH);
        const statement =
          batch.length === STAGE_BATCH ? fullBatch : insertMany(batch.length);
        statement.run(
          ...batch.flatMap(({ line, row }) => [line, ...spec.cells(row)]),
        );
      }
    },
    async reject(lines) {
      for (const { line, column, value, reason } of lines)
        addReject.run(line, column, value, reason);
    },
    apply: async (plan) => applyStaged(db, kind, spec, plan),
    async *rejects() {
      const rows = db
        .prepare(
          "SELECT line, column_name, value, reason FROM temp.staged_rejects ORDER BY line, rowid",
        )
        .iterate();
      for (const row of rows) yield toReject(row as Row);
    },
    async close() {
      db.exec(`
        DROP TABLE IF EXISTS temp.staged; DROP TABLE IF EXISTS temp.staged_rejects;
        DROP TABLE IF EXISTS temp.plan; DROP TABLE IF EXISTS temp.removed;`);
    },
  };
}

const count = (db: DatabaseSync, sql: string) =>
  Number(db.prepare(sql).get()?.n ?? 0);

/** Rows whose key repeats in the file are refused, every one of them: they contradict. */
function rejectRepeats(db: DatabaseSync, spec: SqliteKind<ImportKind>): void {
  const key = spec.key.join(", ");
  const repeats = db
    .prepare(
      `SELECT ${spec.label} AS label, group_concat(s.line, ', ') AS lines
       FROM (SELECT * FROM temp.staged ORDER BY line) s
       GROUP BY ${key.replaceAll(/(\w+)/g, "s.$1")} HAVING count(*) > 1`,
    )
    .all();
  const addReject = db.prepare(
    "INSERT INTO temp.staged_rejects VALUES (?, ?, ?, ?)",
  );
  for (const repeat of repeats) {
    const lines = String(repeat.lines).split(", ").map(Number);
    for (const line of lines)
      addReject.run(
        line,
        spec.keyColumn,
        String(repeat.label),
        `The ${spec.noun} ${String(repeat.label)} is on lines ${lines.join(", ")}: a file may hold each ${spec.noun} once. None of those lines was imported.`,
      );
  }
  if (repeats.length > 0)
    db.exec(
      `DELETE FROM temp.staged WHERE (${key}) IN
        (SELECT ${key} FROM temp.staged GROUP BY ${key} HAVING count(*) > 1)`,
    );
}

function rejectOrphans(db: DatabaseSync, spec: SqliteKind<ImportKind>): void {
  if (!spec.orphans) return;
  db.exec(`INSERT INTO temp.staged_rejects ${spec.orphans}`);
  db.exec(
    "DELETE FROM temp.staged WHERE line IN (SELECT line FROM temp.staged_rejects)",
  );
}

function examples(
  db: DatabaseSync,
  spec: SqliteKind<ImportKind>,
): ImportExamples {
  const of = (change: string) =>
    db
      .prepare(
        `SELECT ${spec.label} AS label FROM temp.plan s WHERE change = ? ORDER BY line LIMIT ${EXAMPLES_SHOWN}`,
      )
      .all(change)
      .map((row) => String(row.label));
  return {
    added: of("added"),
    changed: of("changed"),
    removed: db
      .prepare(
        `SELECT label FROM temp.removed ORDER BY label LIMIT ${EXAMPLES_SHOWN}`,
      )
      .all()
      .map((row) => String(row.label)),
  };
}

function countChanges(db: DatabaseSync, plan: ImportPlan): ImportCounts {
  const changes = Object.fromEntries(
    db
      .prepare("SELECT change, count(*) AS n FROM temp.plan GROUP BY change")
      .all()
      .map((row) => [String(row.change), Number(row.n)]),
  );
  return {
    rows: plan.rows,
    added: changes.added ?? 0,
    changed: changes.changed ?? 0,
    unchanged: changes.unchanged ?? 0,
    removed: count(db, "SELECT count(*) AS n FROM temp.removed"),
    rejected: count(
      db,
      "SELECT count(DISTINCT line) AS n FROM temp.staged_rejects",
    ),
  };
}

function removalRefusal(
  counts: ImportCounts,
  total: number,
  plan: ImportPlan,
  noun: string,
): string | undefined {
  if (plan.mode !== "snapshot" || plan.force || counts.removed === 0)
    return undefined;
  const share = (counts.removed / total) * 100;
  if (share <= plan.maxDeletePct) return undefined;
  return `This snapshot would remove ${counts.removed.toLocaleString("en-GB")} of ${total.toLocaleString("en-GB")} ${noun} records (${share.toFixed(1)}%), more than --max-delete-pct ${plan.maxDeletePct}. Nothing was changed. If the file really is the whole truth, run it again with --force.`;
}

function applyStaged<K extends ImportKind>(
  db: DatabaseSync,
  kind: K,
  spec: SqliteKind<K>,
  plan: ImportPlan,
): ApplyResult {
  db.exec("BEGIN IMMEDIATE");
  try {
    rejectRepeats(db, spec);
    rejectOrphans(db, spec);
    db.exec(spec.plan);
    if (plan.mode === "snapshot") db.exec(spec.removed);
    const counts = countChanges(db, plan);
    const found = examples(db, spec);
    const record = (outcome: "applied" | "refused", message: string | null) =>
      insertImport(db, {
        kind,
        mode: plan.mode,
        file: plan.file,
        runBy: plan.runBy,
        dataAsOf: outcome === "applied" ? plan.dataAsOf : null,
        startedAt: plan.startedAt.toISOString(),
        finishedAt: plan.now().toISOString(),
        outcome,
        message,
        counts,
      });
    const refusal = removalRefusal(
      counts,
      count(db, spec.total),
      plan,
      spec.noun,
    );
    if (refusal) {
      // The refusal is recorded; nothing else of this transaction is kept.
      db.exec("ROLLBACK");
      const importId = plan.dryRun
        ? undefined
        : recordAlone(db, record, refusal);
      return {
        outcome: "refused",
        importId,
        counts,
        examples: found,
        reason: refusal,
      };
    }
    const importId = record("applied", null);
    writeChanges(db, spec, importId, plan.now().toISOString());
    noteFreshness(db, kind, spec, plan);
    keepRejects(db, importId);
    if (plan.dryRun) {
      db.exec("ROLLBACK");
      return { outcome: "dry-run", counts, examples: found };
    }
    db.exec("COMMIT");
    return { outcome: "applied", importId, counts, examples: found };
  } catch (error) {
    if (db.isTransaction) db.exec("ROLLBACK");
    throw error;
  }
}

/**
 * What the import tells the answers about the data (decision 041): its source is as of the
 * file's `--as-of`, the history reaches back to its earliest day, and data is held from now
 * on if it was not before.
 */
function noteFreshness(
  db: DatabaseSync,
  kind: ImportKind,
  spec: SqliteKind<ImportKind>,
  plan: ImportPlan,
): void {
  const source = KIND_SOURCE[kind];
  if (source) writeMeta(db, META_KEYS.asOf(source), plan.dataAsOf);
  if (readMeta(db, META_KEYS.since) === undefined)
    writeMeta(db, META_KEYS.since, plan.startedAt.toISOString());
  const earliest = spec.earliest && db.prepare(spec.earliest).get()?.d;
  const held = readMeta(db, META_KEYS.historyFrom);
  if (typeof earliest === "string" && (held === undefined || earliest < held))
    writeMeta(db, META_KEYS.historyFrom, earliest);
}

function recordAlone(
  db: DatabaseSync,
  record: (outcome: "refused", message: string) => number,
  message: string,
): number {
  db.exec("BEGIN IMMEDIATE");
  try {
    const id = record("refused", message);
    keepRejects(db, id);
    db.exec("COMMIT");
    return id;
  } catch (error) {
    db.exec("ROLLBACK");
    throw error;
  }
}

function keepRejects(db: DatabaseSync, importId: number): void {
  db.prepare(
    `INSERT INTO import_rejects (import_id, line, column_name, value, reason)
     SELECT ?, line, column_name, value, reason FROM temp.staged_rejects
     ORDER BY line, rowid LIMIT ${REJECTS_KEPT}`,
  ).run(importId);
}

/** History first (each touched vehicle's facts as they were), then the changes. */
function writeChanges(
  db: DatabaseSync,
  spec: SqliteKind<ImportKind>,
  importId: number,
  now: string,
): void {
  db.exec(`
    DROP TABLE IF EXISTS temp.touched;
    CREATE TEMP TABLE touched (vehicle_id INTEGER PRIMARY KEY);
    INSERT OR IGNORE INTO temp.touched
      SELECT vehicle_id FROM temp.plan
      WHERE vehicle_id IS NOT NULL AND change <> 'unchanged'
      UNION SELECT vehicle_id FROM temp.removed;`);
  db.prepare(
    `INSERT INTO vehicle_history (registration, make, model, year, color, first_registered,
       tax_due, sorn, updated_at, policies, mots, fines, superseded_at, import_id)
     SELECT ${FACT_LIST}, ?, ? FROM vehicles v
     WHERE v.id IN (SELECT vehicle_id FROM temp.touched)`,
  ).run(now, importId);
  spec.write(db, now);
  db.prepare(
    "UPDATE vehicles SET updated_at = ? WHERE id IN (SELECT vehicle_id FROM temp.touched)",
  ).run(now);
  writeMeta(db, "fleet", IMPORTED_FLEET);
}
