// New, migrated PostgreSQL databases on a test file's server (server-kit's startPostgres):
// a pool alone, or the import harness the import and point-in-time contracts run on.
import type { PgPool } from "@vics/server-kit/postgres";
import type { PostgresServer } from "@vics/server-kit/testing/postgres-server";
import type { ImportHarness } from "./import-files.ts";
import { readMeta } from "../store/postgres/meta.ts";
import { migratePostgres } from "../store/postgres/migrations.ts";
import {
  openStorePool,
  postgresStore,
} from "../store/postgres/postgres-store.ts";

/** A new database named `name`, migrated; its URL and a pool of `poolSize` (default 2). */
export async function migratedPool(
  server: PostgresServer,
  name: string,
  poolSize = 2,
): Promise<{ url: string; pool: PgPool }> {
  const url = await server.createDatabase(name);
  const pool = openStorePool({ url, poolSize });
  try {
    await migratePostgres(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  return { url, pool };
}

let harnesses = 0;

/**
 * A new, migrated, empty database, its store over one pool importing as this process would:
 * through the store, which then reads its held dataInfo again (held-data-info.ts).
 */
export async function openPostgresHarness(
  server: PostgresServer,
): Promise<ImportHarness> {
  const { pool } = await migratedPool(server, `import_${++harnesses}`, 4);
  const store = postgresStore(pool);
  return {
    imports: store,
    store,
    count: async (table) =>
      Number(
        (await pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`))
          .rows[0]?.n,
      ),
    meta: (key) => readMeta(pool, key),
    close: () => store.close(),
  };
}
