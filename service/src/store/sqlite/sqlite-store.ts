import type { DatabaseSync } from "node:sqlite";
import type { Store } from "../store.ts";
import type { SeedOptions } from "../../seed/seed-data.ts";
import { openDatabase } from "./database.ts";
import { migrateSqlite, readMeta } from "./schema.ts";
import { seedSqliteFleet, SYNTHETIC_FLEET } from "./seed-database.ts";
import { createKeyQueries } from "./key-queries.ts";
import { createVehicleQueries } from "./vehicle-queries.ts";
import { dataInfoFromMeta } from "../data-info.ts";
import { heldDataInfo, invalidatingOnApply } from "../held-data-info.ts";
import { sqliteImportStore } from "./import-writer.ts";
import { sqliteFetchedStore } from "./fetched-writer.ts";

export interface SqliteStoreOptions {
  /** A file path, or ":memory:". */
  path: string;
  /**
   * Seed the synthetic fleet when the database holds no vehicles (a new file, or one whose
   * seeding never finished: a crash mid-seeding leaves it without a fleet). Unset: no seeding.
   */
  seed?: SeedOptions;
  /** Told when this open seeds the database, before it starts. */
  onSeeding?: () => void;
}

/**
 * The node:sqlite store. node:sqlite is synchronous; the interface is async so that the
 * PostgreSQL store sits beside it.
 *
 * Opening migrates the file (its schema is its own, and the lookups are prepared against it),
 * then seeds it only when `seed` asks: the service's entry point asks when SEED_SYNTHETIC_FLEET
 * is on (the default with SQLite), and `scripts/db seed` does it explicitly.
 */
export function openSqliteStore(options: SqliteStoreOptions): Store {
  const db = openDatabase(options.path);
  try {
    migrateSqlite(db);
    if (options.seed) seedSqliteFleet(db, options.seed, options.onSeeding);
  } catch (error) {
    db.close();
    throw error;
  }
  return sqliteStore(db);
}

/**
 * The store over an open, migrated database; closing the store closes the database. Exported
 * for tests that count its statements through a wrapped database.
 */
export function sqliteStore(db: DatabaseSync): Store {
  const vehicles = createVehicleQueries(db);
  const imports = sqliteImportStore(db);
  const keys = createKeyQueries(db);
  const fetched = sqliteFetchedStore(db);
  const ping = db.prepare("SELECT 1");
  const allMeta = db.prepare("SELECT key, value FROM meta");
  // Moves when another connection commits (scripts/import); this connection's own commits
  // leave it as it was, so the store's writes below invalidate: held-data-info.ts's rule.
  const dataVersion = db.prepare("PRAGMA data_version");
  const dataInfo = heldDataInfo(
    async () => {
      const meta = new Map(
        allMeta.all().map((row) => [String(row.key), String(row.value)]),
      );
      return dataInfoFromMeta((key) => meta.get(key));
    },
    { version: () => Number(dataVersion.get()?.data_version) },
  );
  return {
    findVehicle: async (registration, knownAt) =>
      vehicles.findVehicle(registration, knownAt),
    findInsurance: async (registration, knownAt) =>
      vehicles.findInsurance(registration, knownAt),
    findVehicles: async (registrations, knownAt) =>
      vehicles.findVehicles(registrations, knownAt),
    findInsurances: async (registrations, knownAt) =>
      vehicles.findInsurances(registrations, knownAt),
    createKey: async (key) => keys.createKey(key),
    findKeyByHash: async (keyHash) => keys.findKeyByHash(keyHash),
    listKeys: async () => keys.listKeys(),
    revokeKey: async (name, revokedAt) => keys.revokeKey(name, revokedAt),
    holdsSyntheticFleet: async () => readMeta(db, "fleet") === SYNTHETIC_FLEET,
    dataInfo: dataInfo.read,
    ...imports,
    startImport: async (kind) =>
      invalidatingOnApply(await imports.startImport(kind), dataInfo.invalidate),
    ...fetched,
    recordFetched: async (batch) => {
      try {
        return await fetched.recordFetched(batch);
      } finally {
        dataInfo.invalidate();
      }
    },
    ping: async () => {
      ping.get();
    },
    close: async () => {
      if (db.isOpen) db.close();
    },
  };
}
