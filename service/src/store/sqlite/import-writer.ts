// The SQLite import (docs/decisions/040-imports.md): a file's rows are staged in this
// connection's temporary tables, then checked and applied in one write transaction that
// also keeps each changed vehicle's previous facts in vehicle_history and records the import.
// A dry run, or a refusal, rolls the transaction back; a crash leaves the file as it was.
import type { DatabaseSync } from "node:sqlite";
import type { ImportKind } from "@vics/shared/import/rows";
import {
  EXAMPLES_SHOWN,
  type ImportCounts,
  type ImportExamples,
  type ImportPlan,
  IMPORT_ROW_COLUMNS,
  IMPORTED_FLEET,
  importRecordFromRow,
  importRowValues,
  type ImportStaging,
  type ImportStore,
  type NewImportRecord,
  rejectFromRow,
  REJECTS_KEPT,
  repeatedKeyReason,
  type StagedRow,
} from "../import-store.ts";
import { applyImport, type ImportEngine } from "../import-apply.ts";
import { SQLITE_KINDS, type SqliteKind } from "./import-kinds.ts";
import { clearRegisterMarks, keepRegisterNewer } from "./import-register.ts";
import { dataSpanNoter, writeMeta } from "./schema.ts";
import { KIND_SOURCE, META_KEYS } from "../data-info.ts";
import { FACT_LIST, HISTORY_COLUMN_NAMES } from "./vehicle-queries.ts";

/** Staged rows go in with one statement per this many. */
const STAGE_BATCH = 500;

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
      return row && importRecordFromRow(row);
    },
    recordImport: async (record, rejects = []) => {
      db.exec("BEGIN IMMEDIATE");
      try {
        const id = insertImport(db, record);
        const keep = db.prepare(
          "INSERT INTO import_rejects (import_id, line, column_name, value, reason) VALUES (?, ?, ?, ?, ?)",
        );
        for (const reject of rejects.slice(0, REJECTS_KEPT))
          keep.run(id, reject.line, reject.column, reject.value, reject.reason);
        db.exec("COMMIT");
        return id;
      } catch (error) {
        if (db.isTransaction) db.exec("ROLLBACK");
        throw error;
      }
    },
    findImport: async (importId) => {
      const row = db
        .prepare("SELECT * FROM imports WHERE id = ?")
        .get(importId);
      return row && importRecordFromRow(row);
    },
    listImports: async (limit) =>
      db
        .prepare("SELECT * FROM imports ORDER BY id DESC LIMIT ?")
        .all(limit)
        .map(importRecordFromRow),
    importRejects: async (importId) =>
      db
        .prepare(
          "SELECT line, column_name, value, reason FROM import_rejects WHERE import_id = ? ORDER BY line, rowid",
        )
        .all(importId)
        .map(rejectFromRow),
  };
}

function insertImport(db: DatabaseSync, record: NewImportRecord): number {
  const { lastInsertRowid } = db
    .prepare(
      `INSERT INTO imports (${IMPORT_ROW_COLUMNS.join(", ")})
       VALUES (${IMPORT_ROW_COLUMNS.map(() => "?").join(", ")})`,
    )
    .run(...importRowValues(record));
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
    DROP TABLE IF EXISTS temp.kept;
    CREATE TEMP TABLE staged (${columns.join(", ")});
    CREATE TEMP TABLE staged_rejects (line, column_name, value, reason);
    CREATE TEMP TABLE plan (${columns.join(", ")}, vehicle_id, record_id, change);
    CREATE TEMP TABLE removed (vehicle_id, record_id, label);
    CREATE TEMP TABLE kept (label);`);
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
    apply: (plan) =>
      applyImport(sqliteEngine(db, kind, spec), kind, spec.noun, plan),
    async *rejects() {
      const rows = db
        .prepare(
          "SELECT line, column_name, value, reason FROM temp.staged_rejects ORDER BY line, rowid",
        )
        .iterate();
      for (const row of rows) yield rejectFromRow(row);
    },
    async close() {
      db.exec(`
        DROP TABLE IF EXISTS temp.staged; DROP TABLE IF EXISTS temp.staged_rejects;
        DROP TABLE IF EXISTS temp.plan; DROP TABLE IF EXISTS temp.removed;
        DROP TABLE IF EXISTS temp.kept;`);
    },
  };
}

const count = (db: DatabaseSync, sql: string) =>
  Number(db.prepare(sql).get()?.n ?? 0);

/** Rows whose key repeats in the file are refused, every one of them: they contradict. */
function rejectRepeats(db: DatabaseSync, spec: SqliteKind<ImportKind>): void {
  const key = spec.key.join(", ");
  // The repeated keys first (rare), then only their lines: the file is not sorted by line.
  db.exec(`DROP TABLE IF EXISTS temp.repeated;
    CREATE TEMP TABLE repeated AS
      SELECT ${key} FROM temp.staged GROUP BY ${key} HAVING count(*) > 1;`);
  const repeats = db
    .prepare(
      `SELECT ${spec.label} AS label, group_concat(s.line, ', ') AS lines
       FROM (SELECT * FROM temp.staged JOIN temp.repeated USING (${key})
             ORDER BY line) s
       GROUP BY ${key.replaceAll(/(\w+)/g, "s.$1")}`,
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
        repeatedKeyReason(spec.noun, String(repeat.label), lines),
      );
  }
  if (repeats.length > 0)
    db.exec(
      `DELETE FROM temp.staged WHERE (${key}) IN (SELECT ${key} FROM temp.repeated)`,
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
    kept: db
      .prepare(
        `SELECT label FROM temp.kept ORDER BY rowid LIMIT ${EXAMPLES_SHOWN}`,
      )
      .all()
      .map((row) => String(row.label)),
    keptCount: count(db, "SELECT count(*) AS n FROM temp.kept"),
  };
}

function countChanges(db: DatabaseSync, rows: number): ImportCounts {
  const changes = Object.fromEntries(
    db
      .prepare("SELECT change, count(*) AS n FROM temp.plan GROUP BY change")
      .all()
      .map((row) => [String(row.change), Number(row.n)]),
  );
  return {
    rows,
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

/** The SQLite side of an import's one transaction (../import-apply.ts). */
function sqliteEngine(
  db: DatabaseSync,
  kind: ImportKind,
  spec: SqliteKind<ImportKind>,
): ImportEngine {
  return {
    begin: async () => db.exec("BEGIN IMMEDIATE"),
    mark: async () => db.exec("SAVEPOINT import_rejects_found"),
    undoToMark: async () => db.exec("ROLLBACK TO import_rejects_found"),
    commit: async () => db.exec("COMMIT"),
    rollback: async () => {
      if (db.isTransaction) db.exec("ROLLBACK");
    },
    rejectUnfit: async () => {
      rejectRepeats(db, spec);
      rejectOrphans(db, spec);
    },
    plan: async (plan) => {
      db.exec(spec.plan);
      if (plan.mode === "snapshot") db.exec(spec.removed);
      if (spec.register)
        keepRegisterNewer(db, spec.register, spec.label, plan.dataAsOf);
    },
    counts: async (rows) => countChanges(db, rows),
    examples: async () => examples(db, spec),
    total: async () => count(db, spec.total),
    insertImport: async (record) => insertImport(db, record),
    write: async (importId, plan) => {
      writeChanges(db, spec, importId, plan.now().toISOString());
      if (spec.register) clearRegisterMarks(db, spec.register, plan.dataAsOf);
      noteFreshness(db, kind, spec, plan);
    },
    keepRejects: async (importId) => keepRejects(db, importId),
  };
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
  const earliest = spec.earliest && db.prepare(spec.earliest).get()?.d;
  dataSpanNoter(db)({
    since: plan.startedAt.toISOString(),
    earliest: typeof earliest === "string" ? earliest : undefined,
  });
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
    `INSERT INTO vehicle_history (${HISTORY_COLUMN_NAMES}, superseded_at, import_id)
     SELECT ${FACT_LIST}, ?, ? FROM vehicles v
     WHERE v.id IN (SELECT vehicle_id FROM temp.touched)`,
  ).run(now, importId);
  spec.write(db, now);
  db.prepare(
    "UPDATE vehicles SET updated_at = ? WHERE id IN (SELECT vehicle_id FROM temp.touched)",
  ).run(now);
  writeMeta(db, "fleet", IMPORTED_FLEET);
}
