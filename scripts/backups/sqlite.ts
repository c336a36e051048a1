// A SQLite store's backup and restore. The backup is `VACUUM INTO`: one read transaction on
// the live file, so the copy is the store at one moment while the servers go on writing (WAL
// mode lets a reader and the writer work together), and compact. Sessions, one-time links and
// OIDC sign-ins under way are then deleted from the copy with secure_delete on (their bytes
// overwritten, not just unlinked), and the counts are taken from the copy itself.
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import { dirname } from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { Select } from "./counts.ts";
import { LEFT_OUT_TABLES, noneLeftOut } from "./left-out.ts";
import type { LeftOut } from "./manifest.ts";

/** A connection's SELECT in the counts' shape. */
export const sqliteSelect =
  (db: DatabaseSync): Select =>
  async (sql) =>
    db.prepare(sql).all() as Array<Record<string, unknown>>;

/**
 * Copies the live file at `live` into `copy` (which must not exist), leaving out the sessions
 * when it is the proxy's store; returns what was left out. `read` is given the copy, to count.
 */
export async function backupSqlite(
  live: string,
  copy: string,
  { proxy }: { proxy: boolean },
  read: (select: Select) => Promise<void>,
): Promise<LeftOut> {
  // Never a new empty file at a mistyped path: a backup of nothing would look like success.
  if (!existsSync(live))
    throw new Error(`There is no database at ${live}: check the setting.`);
  // A writer's lock is waited for (a checkpoint, a migration), not failed on. Read-write, not
  // readOnly: both make the -wal and -shm when no server has them open, but only a read-write
  // connection removes them again on closing; a read-only one would leave them, the backup
  // user's, beside the servers' file.
  const source = new DatabaseSync(live, { timeout: 30_000 });
  try {
    source.prepare("VACUUM INTO ?").run(copy);
  } finally {
    source.close();
  }
  const db = new DatabaseSync(copy);
  try {
    // One self-contained file: no -wal beside it to lose on the way to another disk.
    db.exec("PRAGMA journal_mode = DELETE; PRAGMA secure_delete = ON;");
    const leftOut = noneLeftOut();
    if (proxy)
      for (const [name, table] of Object.entries(LEFT_OUT_TABLES)) {
        leftOut[name as keyof LeftOut] = Number(
          db.prepare(`DELETE FROM ${table}`).run().changes,
        );
      }
    await read(sqliteSelect(db));
    return leftOut;
  } finally {
    db.close();
  }
}

/**
 * Whether the file at `path` holds anything: a schema (its header's schema cookie, which every
 * CREATE changes, is not 0), changes in a -wal beside it, or bytes that are not SQLite's. Read
 * from the header, not opened: opening a WAL file makes its -wal and -shm.
 */
export function sqliteHoldsData(path: string): boolean {
  if (existsSync(`${path}-wal`) && statSync(`${path}-wal`).size > 0)
    return true;
  if (!existsSync(path) || statSync(path).size === 0) return false;
  const header = Buffer.alloc(100);
  const fd = openSync(path, "r");
  try {
    readSync(fd, header, 0, 100, 0);
  } finally {
    closeSync(fd);
  }
  if (header.toString("latin1", 0, 16) !== "SQLite format 3\0") return true;
  return header.readUInt32BE(40) !== 0;
}

/**
 * Whether another connection has the SQLite file at `path` open: a server that uses it, still
 * running. VICS opens its files in WAL mode, where each connection holds the file shared for as
 * long as it is open, so an exclusive lock is refused at once, however idle the server. Opens
 * the file read-write (a read-only connection cannot ask for that lock), so a -wal a stopped
 * server left is checkpointed into it: its bytes may change, its data does not. Asked only of a
 * file about to be replaced; a file it cannot open or lock at all is an Error that says so.
 */
export function sqliteInUse(path: string): boolean {
  if (!existsSync(path)) return false;
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(path, { timeout: 0 });
    db.exec("PRAGMA locking_mode = EXCLUSIVE");
    db.exec("BEGIN EXCLUSIVE");
    db.exec("ROLLBACK");
    return false;
  } catch (error) {
    // The primary result code: SQLITE_BUSY or SQLITE_LOCKED, held; SQLITE_NOTADB, no SQLite
    // file, which no server has open.
    const code = ((error as { errcode?: number }).errcode ?? 0) & 0xff;
    if (code === 5 || code === 6) return true;
    if (code === 26) return false;
    throw new Error(
      `Cannot tell whether ${path} is open in a running server (${(error as Error).message}): stop every server that uses it, check that this user can write the file and its folder, and run again.`,
      { cause: error },
    );
  } finally {
    db?.close();
  }
}

/**
 * Puts the backup's file at `target`: a copy beside it, then a rename, so no reader ever sees
 * half. The old file's -wal and -shm go first: a stale WAL would be replayed onto the new file.
 * The servers that use the file must be stopped.
 */
export async function restoreSqlite(
  file: string,
  target: string,
  read: (select: Select) => Promise<void>,
): Promise<void> {
  mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
  const partial = `${target}.restoring`;
  copyFileSync(file, partial);
  for (const beside of [`${target}-wal`, `${target}-shm`])
    rmSync(beside, { force: true });
  renameSync(partial, target);
  const db = new DatabaseSync(target, { readOnly: true });
  try {
    await read(sqliteSelect(db));
  } finally {
    db.close();
  }
}
