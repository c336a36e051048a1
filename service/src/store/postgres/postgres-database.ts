// What open-store.ts does with DATABASE_URL, in one module it imports only then: the SQLite
// default starts without pg, pg-copy-streams and the PostgreSQL store.
import type { PgPool } from "@vics/server-kit/postgres";
import type { SeedOptions } from "../../seed/seed-data.ts";
import type { Store } from "../store.ts";
import { migratePostgres } from "./migrations.ts";
import {
  openStorePool,
  postgresStore,
  type PostgresStoreOptions,
} from "./postgres-store.ts";
import { seedPostgresFleet } from "./seed-database.ts";
import { postgresImportStore } from "./import-writer.ts";
import { readMeta, SYNTHETIC_FLEET } from "./meta.ts";

async function withPool<T>(
  options: PostgresStoreOptions,
  work: (pool: PgPool) => Promise<T>,
): Promise<T> {
  const pool = openStorePool(options);
  try {
    return await work(pool);
  } finally {
    await pool.end();
  }
}

/** Migrates, seeds `fleet` when given and the database holds no vehicles, then opens the store. */
export async function openPostgresDatabase(
  options: PostgresStoreOptions,
  fleet: SeedOptions | undefined,
  hooks: { onSeeding?: () => void; onMigrated?: (steps: number) => void },
): Promise<Store> {
  const pool = openStorePool(options);
  try {
    const steps = await migratePostgres(pool);
    if (steps > 0) hooks.onMigrated?.(steps);
    if (fleet)
      await seedPostgresFleet(pool, fleet, { onSeeding: hooks.onSeeding });
    options.watchPool?.(pool);
    return postgresStore(pool);
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
}

/** `scripts/import`'s PostgreSQL: migrated, its import store and synthetic-fleet check. */
export async function openPostgresImportTarget(options: PostgresStoreOptions) {
  const pool = openStorePool(options);
  try {
    await migratePostgres(pool);
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
  return {
    imports: postgresImportStore(pool),
    holdsSyntheticFleet: async () =>
      (await readMeta(pool, "fleet")) === SYNTHETIC_FLEET,
    close: () => pool.end(),
  };
}

export const migratePostgresDatabase = (options: PostgresStoreOptions) =>
  withPool(options, migratePostgres);

export const seedPostgresDatabase = (
  options: PostgresStoreOptions,
  fleet: SeedOptions,
  onSeeding?: () => void,
) =>
  withPool(options, async (pool) => {
    await migratePostgres(pool);
    return seedPostgresFleet(pool, fleet, { onSeeding });
  });
