import type { DatabaseSync } from "node:sqlite";
import { inTransaction } from "@vics/shared/server/sqlite";
import { seedVehicles, type SeedOptions } from "../../seed/seed-data.ts";
import type { SeedVehicle } from "../../seed/seed-vehicle.ts";
import {
  createLookupIndexes,
  createTables,
  lacksLookupIndexes,
  readMeta,
  writeMeta,
} from "./schema.ts";
import { writeVehicles } from "./seed-writer.ts";

export const SYNTHETIC_FLEET = "synthetic";

/**
 * Creates the schema and seeds it in ONE transaction that also records the fleet in
 * `meta`: a crash part-way leaves an empty file, never a half-seeded database.
 * Returns whether this call did the seeding.
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
    onSeeding?.();
    createTables(db);
    const count = writeVehicles(db, vehicles());
    createLookupIndexes(db);
    writeMeta(db, "fleet", SYNTHETIC_FLEET);
    writeMeta(db, "seed", String(options.seed));
    writeMeta(db, "seeded_on", options.today);
    writeMeta(db, "vehicle_count", String(count));
    return true;
  });
}

/**
 * A database seeded before the lookup indexes of decision 020 gets them, once, on its next
 * open (seconds on 1,000,000 vehicles): the lookups name them, and would fail without them.
 */
export function ensureLookupIndexes(db: DatabaseSync): void {
  if (!lacksLookupIndexes(db)) return;
  inTransaction(db, () => {
    if (lacksLookupIndexes(db)) createLookupIndexes(db);
  });
}
