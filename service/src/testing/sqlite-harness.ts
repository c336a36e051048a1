import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ImportHarness } from "./import-files.ts";
import { openImportDatabase } from "../store/sqlite/database.ts";
import { sqliteImportStore } from "../store/sqlite/import-writer.ts";
import { migrateSqlite, readMeta } from "../store/sqlite/schema.ts";
import { openSqliteStore } from "../store/sqlite/sqlite-store.ts";
import type { SeedOptions } from "../seed/seed-data.ts";

/**
 * A new SQLite file: the import's connection beside the store's, as the CLI and the service.
 * `seed`: the synthetic fleet to seed it with first; none unless given.
 */
export function openSqliteHarness(seed?: SeedOptions): ImportHarness {
  const dir = mkdtempSync(join(tmpdir(), "vics-import-db-"));
  const path = join(dir, "vics.sqlite");
  const db = openImportDatabase(path);
  migrateSqlite(db);
  const store = openSqliteStore({ path, seed });
  return {
    imports: sqliteImportStore(db),
    store,
    count: async (table) =>
      Number(db.prepare(`SELECT count(*) AS n FROM ${table}`).get()?.n),
    meta: async (key) => readMeta(db, key),
    async close() {
      await store.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
