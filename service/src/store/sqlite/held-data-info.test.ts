import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe } from "vitest";
import { countingSqlite } from "@vics/server-kit/testing/statement-counter";
import { heldDataInfoContract } from "../held-data-info.contract.ts";
import { openDatabase, openImportDatabase } from "./database.ts";
import { sqliteImportStore } from "./import-writer.ts";
import { migrateSqlite } from "./schema.ts";
import { sqliteStore } from "./sqlite-store.ts";

describe("the SQLite store's data info", () => {
  // The imports come through a connection of their own, as scripts/import's beside the
  // service: the store learns of them from PRAGMA data_version alone.
  heldDataInfoContract(async () => {
    const dir = mkdtempSync(join(tmpdir(), "vics-held-"));
    const path = join(dir, "vics.sqlite");
    const db = openDatabase(path);
    migrateSqlite(db);
    const counted = countingSqlite(db, /\bFROM meta\b/);
    const store = sqliteStore(counted.database);
    const importDb = openImportDatabase(path);
    return {
      store,
      imports: sqliteImportStore(importDb),
      metaReads: counted.count,
      async close() {
        await store.close();
        importDb.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });

  // The imports come through the store itself, as a process that imports and answers would:
  // data_version does not move for a connection's own commits, so the store learns of them
  // from its own apply alone (held-data-info.ts's invalidate).
  describe("with imports through the store itself", () => {
    heldDataInfoContract(async () => {
      const dir = mkdtempSync(join(tmpdir(), "vics-held-"));
      const db = openDatabase(join(dir, "vics.sqlite"));
      migrateSqlite(db);
      const counted = countingSqlite(db, /\bFROM meta\b/);
      const store = sqliteStore(counted.database);
      return {
        store,
        imports: store,
        metaReads: counted.count,
        async close() {
          await store.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    });
  });
});
