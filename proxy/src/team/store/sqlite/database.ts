import type { DatabaseSync } from "node:sqlite";
import { Kysely } from "kysely";
import { openSqlite } from "@vics/server-kit/sqlite";
import type { Database } from "../kysely/database.ts";
import { NodeSqliteDialect } from "../kysely/node-sqlite-dialect.ts";
import type { KyselyStore, Spelling } from "../kysely/spelling.ts";

export function openDatabase(path: string): DatabaseSync {
  return openSqlite(path, {
    // Another process (`scripts/users` beside the proxy) may hold the write lock for a moment.
    busyTimeoutMs: 10_000,
    // WAL: readers never wait for the audit writes. FULL: a committed audit event survives a
    // power cut, since a check is answered only once its event is committed.
    pragmas: ["journal_mode = WAL", "synchronous = FULL"],
  });
}

const SQLITE: Spelling = {
  later: "max",
  flag: (value) => Number(value),
  settings: "settings",
  caselessEmail: true,
  readJson: (text) => (text === null ? null : JSON.parse(text as string)),
};

/** Kysely on the store's open file, with SQLite's spelling for the shared queries. */
export const sqliteKysely = (db: DatabaseSync): KyselyStore => ({
  db: new Kysely<Database>({ dialect: new NodeSqliteDialect(db) }),
  spelling: SQLITE,
});
