import {
  startPostgres,
  type PostgresServer,
} from "@vics/shared/testing/postgres-server";
import { afterAll, beforeAll, describe } from "vitest";
import { readMeta } from "../store/postgres/meta.ts";
import { migratePostgres } from "../store/postgres/migrations.ts";
import { postgresImportStore } from "../store/postgres/import-writer.ts";
import {
  openStorePool,
  postgresStore,
} from "../store/postgres/postgres-store.ts";
import { type ImportHarness, importContract } from "./import.contract.ts";
import { registerNewerContract } from "./register-newer.contract.ts";
import { pointInTimeContract } from "../routes/point-in-time.contract.ts";

let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(() => server?.close());

let databases = 0;

/** A new, migrated, empty PostgreSQL database, with the store and the import over one pool. */
export async function openPostgresHarness(
  pgServer: PostgresServer = server,
): Promise<ImportHarness> {
  const pool = openStorePool({
    url: await pgServer.createDatabase(`import_${++databases}`),
    poolSize: 4,
  });
  await migratePostgres(pool);
  return {
    imports: postgresImportStore(pool),
    store: postgresStore(pool),
    count: async (table) =>
      Number(
        (await pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`))
          .rows[0]?.n,
      ),
    meta: (key) => readMeta(pool, key),
    close: () => pool.end(),
  };
}

describe("importing into PostgreSQL", () => {
  importContract(() => openPostgresHarness());
});

describe("point-in-time answers from PostgreSQL", () => {
  pointInTimeContract(() => openPostgresHarness());
});

describe("importing into PostgreSQL over a live register's facts", () => {
  registerNewerContract(() => openPostgresHarness());
});
