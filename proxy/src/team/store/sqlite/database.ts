import type { DatabaseSync } from "node:sqlite";
import { openSqlite } from "@vics/shared/server/sqlite";

export function openDatabase(path: string): DatabaseSync {
  return openSqlite(path, {
    // Another process (`scripts/users` beside the proxy) may hold the write lock for a moment.
    busyTimeoutMs: 10_000,
    // WAL: readers never wait for the audit writes. FULL: a committed audit event survives a
    // power cut, since a check is answered only once its event is committed.
    pragmas: ["journal_mode = WAL", "synchronous = FULL"],
  });
}
