import type { DatabaseSync } from "node:sqlite";
import { inTransaction } from "@vics/shared/server/sqlite";
import { seedVehicles, type SeedOptions } from "../../seed/seed-data.ts";
import type { SeedVehicle } from "../../seed/seed-vehicle.ts";
import {
  createLookupIndexes,
  createTables,
  dropLookupIndexes,
  readMeta,
  writeMeta,
} from "./schema.ts";
import { writeVehicles } from "./seed-writer.ts";

export const SYNTHETIC_FLEET = "synthetic";

/**
 * Seeds the synthetic fleet into a database that holds no vehicles, in ONE transaction that
 * also records the fleet in `meta`: a crash part-way leaves no vehicles, never half a fleet,
 * and the next start seeds again. It creates the tables when they are missing (a new file),
 * and builds the lookup indexes after the inserts (decision 020). A database holding vehicles
 * of its own is left alone. Returns whether this call did the seeding.
 */
export function ensureSeeded(
  db: DatabaseSync,
  options: SeedOptions,
  vehicles: () => Iterable<SeedVehicle> = () => seedVehicles(options),
  /** Told just before the seeding starts: it takes seconds. */
  onSeeding?: () => void,
): boolean {
  if (readMeta(db, "fleet") !== undefined) return false;
  return inTransaction(db, () => {
    // Another process (the keys CLI or a second service) may have won the race.
    if (readMeta(db, "fleet") !== undefined) return false;
    createTables(db);
    if (db.prepare("SELECT 1 FROM vehicles LIMIT 1").get()) return false;
    onSeeding?.();
    dropLookupIndexes(db);
    const count = writeVehicles(db, vehicles());
    createLookupIndexes(db);
    writeMeta(db, "fleet", SYNTHETIC_FLEET);
    writeMeta(db, "seed", String(options.seed));
    writeMeta(db, "seeded_on", options.today);
    writeMeta(db, "vehicle_count", String(count));
    return true;
  });
}

/** The explicit step, under the name the PostgreSQL store's seeding has. */
export const seedSqliteFleet = (
  db: DatabaseSync,
  options: SeedOptions,
  onSeeding?: () => void,
): boolean => ensureSeeded(db, options, undefined, onSeeding);
