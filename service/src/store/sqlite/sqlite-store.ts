import type { Store } from "../store.ts";
import type { SeedOptions } from "../../seed/seed-data.ts";
import { openDatabase } from "./database.ts";
import { readMeta } from "./schema.ts";
import {
  ensureLookupIndexes,
  ensureSeeded,
  SYNTHETIC_FLEET,
} from "./seed-database.ts";
import { createKeyQueries } from "./key-queries.ts";
import { createVehicleQueries } from "./vehicle-queries.ts";

export interface SqliteStoreOptions {
  /** A file path, or ":memory:". */
  path: string;
  seed: SeedOptions;
  /**
   * Told when this open seeds the database, before it starts: on a new file, or on one whose
   * seeding never finished (a crash mid-seeding leaves the file without a fleet).
   */
  onSeeding?: () => void;
}

/**
 * The node:sqlite store. node:sqlite is synchronous; the interface is async so that a
 * PostgreSQL store can sit beside it.
 */
export function openSqliteStore(options: SqliteStoreOptions): Store {
  const db = openDatabase(options.path);
  try {
    ensureSeeded(db, options.seed, undefined, options.onSeeding);
    ensureLookupIndexes(db);
  } catch (error) {
    db.close();
    throw error;
  }
  const vehicles = createVehicleQueries(db);
  const keys = createKeyQueries(db);
  return {
    findVehicle: async (registration) => vehicles.findVehicle(registration),
    findVehicles: async (registrations) => vehicles.findVehicles(registrations),
    createKey: async (key) => keys.createKey(key),
    findKeyByHash: async (keyHash) => keys.findKeyByHash(keyHash),
    listKeys: async () => keys.listKeys(),
    revokeKey: async (name, revokedAt) => keys.revokeKey(name, revokedAt),
    holdsSyntheticFleet: async () => readMeta(db, "fleet") === SYNTHETIC_FLEET,
    close: async () => {
      if (db.isOpen) db.close();
    },
  };
}
