import type { DatabaseSync } from "node:sqlite";
import { openSqlite } from "@vics/server-kit/sqlite";

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

/**
 * The same file for `scripts/import`, which streams a file of any size: no memory map (its
 * pages count in the process's resident memory) and a 16 MiB page cache, spilled to the WAL
 * as the one import transaction grows.
 */
export function openImportDatabase(path: string): DatabaseSync {
  return openSqlite(path, {
    busyTimeoutMs: 60_000,
    pragmas: [
      "journal_mode = WAL",
      "synchronous = NORMAL",
      "cache_size = -16384",
      "temp_store = FILE",
    ],
  });
}
