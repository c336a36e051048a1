import type { DatabaseSync } from "node:sqlite";
import { inTransaction } from "@vics/server-kit/sqlite";
import { seedVehicles, type SeedOptions } from "../../seed/seed-data.ts";
import { META_KEYS, noteEarliestDay, seedingMeta } from "../data-info.ts";
import type { VehicleFacts } from "../../domain/vehicle-facts.ts";
import {
  createLookupIndexes,
  createTables,
  dropLookupIndexes,
  readMeta,
  writeMeta,
} from "./schema.ts";
import { writeVehicles } from "./seed-writer.ts";
import type { SeedOutcome } from "../store.ts";

export const SYNTHETIC_FLEET = "synthetic";

/**
 * Seeds the synthetic fleet into a database that holds no vehicles, in ONE transaction that
 * also records the fleet in `meta`: a crash part-way leaves no vehicles, never half a fleet,
 * and the next start seeds again. It creates the tables when they are missing (a new file),
 * and builds the lookup indexes after the inserts (decision 020). A database holding vehicles
 * of its own is left alone.
 */
export function ensureSeeded(
  db: DatabaseSync,
  options: SeedOptions,
  vehicles: () => Iterable<VehicleFacts> = () => seedVehicles(options),
  /** Told just before the seeding starts: it takes seconds. */
  onSeeding?: () => void,
): SeedOutcome {
  if (readMeta(db, "fleet") !== undefined) return "already-seeded";
  return inTransaction(db, () => {
    // Another process (the keys CLI or a second service) may have won the race.
    if (readMeta(db, "fleet") !== undefined) return "already-seeded";
    createTables(db);
    if (db.prepare("SELECT 1 FROM vehicles LIMIT 1").get())
      return "own-vehicles";
    onSeeding?.();
    dropLookupIndexes(db);
    const fleet = noteEarliestDay(vehicles());
    const count = writeVehicles(db, fleet.vehicles);
    createLookupIndexes(db);
    for (const [key, value] of seedingMeta(options, fleet.earliest()))
      writeMeta(db, key, value);
    writeMeta(db, "fleet", SYNTHETIC_FLEET);
    writeMeta(db, "seed", String(options.seed));
    writeMeta(db, META_KEYS.seededOn, options.today);
    writeMeta(db, META_KEYS.seededVehicles, String(count));
    return "seeded";
  });
}

/** The explicit step, under the name the PostgreSQL store's seeding has. */
export const seedSqliteFleet = (
  db: DatabaseSync,
  options: SeedOptions,
  onSeeding?: () => void,
): SeedOutcome => ensureSeeded(db, options, undefined, onSeeding);
