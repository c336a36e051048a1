import type { DatabaseSync } from "node:sqlite";
import { openSqlite } from "@vics/shared/server/sqlite";

export function openDatabase(path: string): DatabaseSync {
  return openSqlite(path, {
    // How long a writer waits for another process's lock (the keys CLI beside the service):
    // longer than a first-start seeding on a busy machine, which holds the lock for seconds.
    busyTimeoutMs: 60_000,
    // Reads through a memory map of up to 1 GiB and a 64 MiB page cache: a 1,000-item bulk
    // lookup on a 1,000,000-vehicle database takes half the time (docs/performance.md).
    pragmas: [
      "journal_mode = WAL",
      "synchronous = NORMAL",
      "mmap_size = 1073741824",
      "cache_size = -65536",
    ],
  });
}
