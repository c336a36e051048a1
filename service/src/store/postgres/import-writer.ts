// The PostgreSQL import (docs/decisions/040-imports.md): a file's rows are COPYed into this
// session's temporary tables, then checked and applied in one transaction that keeps each
// touched vehicle's row as it was in vehicle_history and records the import. Imports run one
// at a time (an advisory lock); a dry run or a refusal undoes everything after the rejects,
// and a crash leaves the database as it was.
import { once } from "node:events";
import { Readable } from "node:stream";
import { finished, pipeline } from "node:stream/promises";
import { from as copyFrom } from "pg-copy-streams";
import type { PgClient, PgPool } from "@vics/server-kit/postgres";
import type { ImportKind } from "@vics/shared/import/rows";
import { applyImport, type ImportEngine } from "../import-apply.ts";
import {
  EXAMPLES_SHOWN,
  IMPORT_ROW_COLUMNS,
  type ImportCounts,
  type ImportPlan,
  importRecordFromRow,
  importRowValues,
  type ImportStaging,
  type ImportStore,
  IMPORTED_FLEET,
  type RejectLine,
  rejectFromRow,
  REJECTS_KEPT,
  repeatedKeyReason,
  type StagedRow,
} from "../import-store.ts";
import { KIND_SOURCE, META_KEYS } from "../data-info.ts";
import { copyText } from "./copy-lines.ts";
import { noteDataSpan, writeMeta } from "./meta.ts";
import { versionColumns } from "./vehicle-queries.ts";
import { POSTGRES_KINDS, type PostgresKind } from "./import-kinds.ts";
import { FETCHED_LOCK } from "./fetched-writer.ts";
import { clearRegisterMarks, keepRegisterNewer } from "./import-register.ts";

/** Names the advisory lock two imports into one database queue on. */
const IMPORT_LOCK = "vics_service_import";

/** The rejects are read back in pages of this many. */
const REJECTS_PAGE = 10_000;

const kindOf = <K extends ImportKind>(kind: K) =>
  POSTGRES_KINDS[kind] as PostgresKind<K>;

export function postgresImportStore(pool: PgPool): ImportStore {
  return {
    startImport: async (kind) => startStaging(await pool.connect(), kind),
    appliedImport: async (kind, sha256) => {
      const { rows } = await pool.query(
        "SELECT * FROM imports WHERE kind = $1 AND sha256 = $2 AND outcome = 'applied'",
        [kind, sha256],
      );
      return rows[0] && importRecordFromRow(rows[0]);
    },
    recordImport: async (record, rejects = []) => {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const id = await insertImport(client, importRowValues(record));
        for (const reject of rejects.slice(0, REJECTS_KEPT))
          await client.query(
            "INSERT INTO import_rejects (import_id, line, column_name, value, reason) VALUES ($1, $2, $3, $4, $5)",
            [id, reject.line, reject.column, reject.value, reject.reason],
          );
        await client.query("COMMIT");
        return id;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    findImport: async (importId) => {
      const { rows } = await pool.query("SELECT * FROM imports WHERE id = $1", [
        importId,
      ]);
      return rows[0] && importRecordFromRow(rows[0]);
    },
    listImports: async (limit) =>
      (
        await pool.query("SELECT * FROM imports ORDER BY id DESC LIMIT $1", [
          limit,
        ])
      ).rows.map(importRecordFromRow),
    importRejects: async (importId) =>
      (
        await pool.query(
          "SELECT line, column_name, value, reason FROM import_rejects WHERE import_id = $1 ORDER BY line",
          [importId],
        )
      ).rows.map(rejectFromRow),
  };
}

async function insertImport(
  db: PgPool | PgClient,
  values: unknown[],
): Promise<number> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO imports (${IMPORT_ROW_COLUMNS.join(", ")})
     VALUES (${IMPORT_ROW_COLUMNS.map((_, index) => `$${index + 1}`).join(", ")})
     RETURNING id`,
    values,
  );
  return Number(rows[0]?.id);
}

/** Rows as COPY's text format: tab-separated, NULL as \N, one line each. */
const copyLines = (rows: readonly (readonly (string | null)[])[]) =>
  rows.map((cells) => `${cells.map(copyText).join("\t")}\n`).join("");

async function copyInto(
  client: PgClient,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly (string | null)[])[],
): Promise<void> {
  if (rows.length === 0) return;
  await pipeline(
    Readable.from([copyLines(rows)]),
    client.query(copyFrom(`COPY ${table} (${columns.join(", ")}) FROM STDIN`)),
  );
}

/** Rejects are kept until this many, then COPYed in one go between the rows' COPYs. */
const REJECTS_BUFFERED = 10_000;

/**
 * One COPY into a staging table, kept open across the file's batches: PostgreSQL parses the
 * rows on its core while the next batch is read and checked on this one. `end()` finishes it
 * (a later `write` opens another); writes wait while PostgreSQL catches up.
 */
function openCopy(client: PgClient, sql: string) {
  let stream: ReturnType<typeof copyFrom> | undefined;
  return {
    async write(text: string) {
      if (text === "") return;
      stream ??= client.query(copyFrom(sql));
      // once() rejects if the COPY fails (a bad value): the error comes out here.
      if (!stream.write(text)) await once(stream, "drain");
    },
    async end() {
      const open = stream;
      stream = undefined;
      if (!open) return;
      open.end();
      await finished(open);
    },
  };
}

async function startStaging<K extends ImportKind>(
  client: PgClient,
  kind: K,
): Promise<ImportStaging<K>> {
  const spec = kindOf(kind);
  const columns = spec.columns.map(([name]) => name);
  const typed = spec.columns
    .map(([name, type]) => `${name} ${type}`)
    .join(", ");
  try {
    await client.query(`
      DROP TABLE IF EXISTS pg_temp.staged, pg_temp.staged_rejects, pg_temp.plan,
        pg_temp.removed, pg_temp.touched, pg_temp.kept;
      CREATE TEMP TABLE staged (line bigint NOT NULL, ${typed});
      CREATE TEMP TABLE staged_rejects (seq bigserial, line bigint NOT NULL,
        column_name text NOT NULL, value text NOT NULL, reason text NOT NULL);
      CREATE TEMP TABLE plan (line bigint NOT NULL, ${typed}, vehicle_id bigint, change text);
      CREATE TEMP TABLE removed (vehicle_id bigint NOT NULL, key text, label text NOT NULL);
      CREATE TEMP TABLE touched (vehicle_id bigint NOT NULL);
      CREATE TEMP TABLE kept (seq bigserial, label text NOT NULL);`);
  } catch (error) {
    client.release(true);
    throw error;
  }
  const rejectColumns = ["line", "column_name", "value", "reason"];
  const rows = openCopy(
    client,
    `COPY pg_temp.staged (${["line", ...columns].join(", ")}) FROM STDIN`,
  );
  let rejects: string[][] = [];
  /** The rows' COPY is paused (one COPY at a time on a session) while the rejects go in. */
  const flushRejects = async () => {
    if (rejects.length === 0) return;
    await rows.end();
    await copyInto(client, "pg_temp.staged_rejects", rejectColumns, rejects);
    rejects = [];
  };
  return {
    stage: (staged: readonly StagedRow<K>[]) =>
      rows.write(
        copyLines(
          staged.map(({ line, row }) => [String(line), ...spec.cells(row)]),
        ),
      ),
    async reject(lines) {
      for (const reject of lines)
        rejects.push([
          String(reject.line),
          reject.column,
          reject.value,
          reject.reason,
        ]);
      if (rejects.length >= REJECTS_BUFFERED) await flushRejects();
    },
    async apply(plan) {
      await rows.end();
      await flushRejects();
      return applyImport(
        postgresEngine(client, kind, spec),
        kind,
        spec.noun,
        plan,
      );
    },
    rejects: () => rejectPages(client),
    async close() {
      try {
        await rows.end();
        await client.query(
          "DROP TABLE IF EXISTS pg_temp.staged, pg_temp.staged_rejects, pg_temp.plan, pg_temp.removed, pg_temp.touched, pg_temp.kept",
        );
        client.release();
      } catch (error) {
        client.release(true);
        throw error;
      }
    },
  };
}

/** Every reject of the file in line order, read a page at a time. */
async function* rejectPages(client: PgClient): AsyncGenerator<RejectLine> {
  let after = { line: -1, seq: -1 };
  for (;;) {
    const { rows } = await client.query(
      `SELECT seq, line, column_name, value, reason FROM pg_temp.staged_rejects
       WHERE (line, seq) > ($1, $2) ORDER BY line, seq LIMIT ${REJECTS_PAGE}`,
      [after.line, after.seq],
    );
    for (const row of rows) yield rejectFromRow(row);
    const last = rows.at(-1);
    if (!last || rows.length < REJECTS_PAGE) return;
    after = { line: Number(last.line), seq: Number(last.seq) };
  }
}

const count = async (client: PgClient, sql: string) =>
  Number((await client.query<{ n: string }>(sql)).rows[0]?.n ?? 0);

/** The PostgreSQL side of an import's one transaction (../import-apply.ts). */
function postgresEngine(
  client: PgClient,
  kind: ImportKind,
  spec: PostgresKind<ImportKind>,
): ImportEngine {
  const key = spec.key.join(", ");
  return {
    async begin() {
      await client.query("BEGIN");
      // The import's hashes and sorts span the whole file: in memory, not spilled to disk
      // (the server's default is 4MB per operation). For this transaction only.
      await client.query("SET LOCAL work_mem = '256MB'");
      await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [
        IMPORT_LOCK,
      ]);
    },
    mark: async () => {
      await client.query("SAVEPOINT import_rejects_found");
    },
    undoToMark: async () => {
      await client.query("ROLLBACK TO SAVEPOINT import_rejects_found");
    },
    commit: async () => {
      await client.query("COMMIT");
    },
    rollback: async () => {
      await client.query("ROLLBACK");
    },
    async rejectUnfit() {
      // Its statistics, so the joins below hash rather than loop; no index: every query
      // here reads the whole file.
      await client.query("ANALYZE pg_temp.staged");
      // The repeated keys first (rare, found by hashing), then only their lines.
      const { rows } = await client.query<{ label: string; lines: string[] }>(
        `WITH repeated AS (
           SELECT ${key} FROM pg_temp.staged GROUP BY ${key} HAVING count(*) > 1)
         SELECT ${spec.label} AS label, array_agg(s.line ORDER BY s.line)::text[] AS lines
         FROM pg_temp.staged s JOIN repeated USING (${key})
         GROUP BY ${spec.key.map((column) => `s.${column}`).join(", ")}`,
      );
      const repeats = rows.flatMap(({ label, lines }) => {
        const numbers = lines.map(Number);
        return numbers.map((line) => [
          String(line),
          spec.keyColumn,
          label,
          repeatedKeyReason(spec.noun, label, numbers),
        ]);
      });
      await copyInto(
        client,
        "pg_temp.staged_rejects",
        ["line", "column_name", "value", "reason"],
        repeats,
      );
      if (rows.length > 0)
        await client.query(
          `DELETE FROM pg_temp.staged WHERE (${key}) IN
            (SELECT ${key} FROM pg_temp.staged GROUP BY ${key} HAVING count(*) > 1)`,
        );
      if (spec.orphans) {
        await client.query(
          `INSERT INTO pg_temp.staged_rejects (line, column_name, value, reason) ${spec.orphans}`,
        );
        await client.query(
          "DELETE FROM pg_temp.staged WHERE line IN (SELECT line FROM pg_temp.staged_rejects)",
        );
      }
    },
    async plan(plan) {
      await client.query(spec.plan);
      if (plan.mode === "snapshot") await client.query(spec.removed);
      await client.query("CREATE INDEX ON pg_temp.plan (vehicle_id)");
      await client.query("ANALYZE pg_temp.plan");
      if (spec.register) {
        // What the register fetched is read once, here, and the write comes later: a batch
        // committed in between would be overwritten by the file's older fact with its mark
        // left standing. Fetched batches wait for this transaction (and give up busy).
        await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [
          FETCHED_LOCK,
        ]);
        await keepRegisterNewer(
          client,
          spec.register,
          spec.label,
          plan.dataAsOf,
        );
      }
    },
    counts: (rows) => countChanges(client, rows),
    async examples() {
      const of = async (change: string) =>
        (
          await client.query<{ label: string }>(
            `SELECT ${spec.label} AS label FROM pg_temp.plan s WHERE change = $1
             ORDER BY line LIMIT ${EXAMPLES_SHOWN}`,
            [change],
          )
        ).rows.map((row) => row.label);
      return {
        added: await of("added"),
        changed: await of("changed"),
        removed: (
          await client.query<{ label: string }>(
            `SELECT label FROM pg_temp.removed ORDER BY label COLLATE "C" LIMIT ${EXAMPLES_SHOWN}`,
          )
        ).rows.map((row) => row.label),
        kept: (
          await client.query<{ label: string }>(
            `SELECT label FROM pg_temp.kept ORDER BY seq LIMIT ${EXAMPLES_SHOWN}`,
          )
        ).rows.map((row) => row.label),
        keptCount: await count(
          client,
          "SELECT count(*) AS n FROM pg_temp.kept",
        ),
      };
    },
    total: () => count(client, spec.total),
    insertImport: (record) => insertImport(client, importRowValues(record)),
    write: (importId, plan) => writeChanges(client, kind, spec, importId, plan),
    async keepRejects(importId) {
      await client.query(
        `INSERT INTO import_rejects (import_id, line, column_name, value, reason)
         SELECT $1, line, column_name, value, reason FROM pg_temp.staged_rejects
         ORDER BY line, seq LIMIT ${REJECTS_KEPT}`,
        [importId],
      );
    },
  };
}

async function countChanges(
  client: PgClient,
  rows: number,
): Promise<ImportCounts> {
  const changes = Object.fromEntries(
    (
      await client.query<{ change: string; n: string }>(
        "SELECT change, count(*) AS n FROM pg_temp.plan GROUP BY change",
      )
    ).rows.map((row) => [row.change, Number(row.n)]),
  );
  return {
    rows,
    added: changes.added ?? 0,
    changed: changes.changed ?? 0,
    unchanged: changes.unchanged ?? 0,
    removed: await count(client, "SELECT count(*) AS n FROM pg_temp.removed"),
    rejected: await count(
      client,
      "SELECT count(DISTINCT line) AS n FROM pg_temp.staged_rejects",
    ),
  };
}

/**
 * Each touched vehicle's row goes to vehicle_history as it was, then the changes, then the
 * instant VICS learned the new facts and what the answers say of the data (decision 041).
 */
async function writeChanges(
  client: PgClient,
  kind: ImportKind,
  spec: PostgresKind<ImportKind>,
  importId: number,
  plan: ImportPlan,
): Promise<void> {
  const now = plan.now().toISOString();
  await client.query(
    `INSERT INTO pg_temp.touched
     SELECT vehicle_id FROM pg_temp.plan
     WHERE vehicle_id IS NOT NULL AND change <> 'unchanged'
     UNION SELECT vehicle_id FROM pg_temp.removed`,
  );
  // No index: UNION has made each vehicle appear once, and the joins below hash it.
  await client.query("ANALYZE pg_temp.touched");
  await client.query(
    `INSERT INTO vehicle_history (${versionColumns()}, superseded_at, import_id)
     SELECT ${versionColumns()}, $1, $2
     FROM vehicles WHERE id IN (SELECT vehicle_id FROM pg_temp.touched)`,
    [now, importId],
  );
  for (const statement of spec.write)
    await client.query(statement, statement.includes("$1") ? [now] : []);
  if (spec.register)
    await clearRegisterMarks(client, spec.register, plan.dataAsOf);
  await writeMeta(client, "fleet", IMPORTED_FLEET);
  const source = KIND_SOURCE[kind];
  if (source) await writeMeta(client, META_KEYS.asOf(source), plan.dataAsOf);
  await noteDataSpan(client, {
    since: plan.startedAt.toISOString(),
    earliest:
      spec.earliest &&
      (await client.query<{ d: string | null }>(spec.earliest)).rows[0]?.d,
  });
}
