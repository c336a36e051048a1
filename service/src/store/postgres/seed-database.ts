import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { from as copyFrom } from "pg-copy-streams";
import {
  inPgTransaction,
  type PgClient,
  type PgPool,
} from "@vics/server-kit/postgres";
import { seedVehicles, type SeedOptions } from "../../seed/seed-data.ts";
import type { VehicleFacts } from "../../domain/vehicle-facts.ts";
import { COPY_VEHICLES_SQL, vehicleLines } from "./copy-lines.ts";
import { readMeta, SYNTHETIC_FLEET, writeMeta } from "./meta.ts";
import type { SeedOutcome } from "../store.ts";
import { META_KEYS, noteEarliestDay, seedingMeta } from "../data-info.ts";

/** Replicas that find an empty database together seed it one at a time: the first does it. */
const SEED_LOCK = "vics_service_seed";

export interface PostgresSeedOptions {
  /** The vehicles to write; default: the synthetic fleet of `SeedOptions`. */
  vehicles?: () => Iterable<VehicleFacts>;
  /** Told just before the seeding starts, by the one process that does it. */
  onSeeding?: () => void;
}

/**
 * Seeds the synthetic fleet into a migrated database that holds no vehicles, in ONE
 * transaction that also records it in `meta`: a crash part-way leaves the table empty, and
 * the next start seeds again. Replicas starting together queue on an advisory lock; the first
 * seeds, the others then find the fleet recorded and return. A database holding vehicles of
 * its own, not the synthetic fleet, is never touched.
 */
export async function seedPostgresFleet(
  pool: PgPool,
  options: SeedOptions,
  {
    vehicles = () => seedVehicles(options),
    onSeeding,
  }: PostgresSeedOptions = {},
): Promise<SeedOutcome> {
  if ((await readMeta(pool, "fleet")) !== undefined) return "already-seeded";
  return inPgTransaction(pool, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [
      SEED_LOCK,
    ]);
    if ((await readMeta(client, "fleet")) !== undefined)
      return "already-seeded";
    const { rowCount } = await client.query("SELECT 1 FROM vehicles LIMIT 1");
    if (rowCount !== 0) return "own-vehicles";
    onSeeding?.();
    const fleet = noteEarliestDay(vehicles());
    const count = await loadVehicles(client, fleet.vehicles);
    for (const [key, value] of seedingMeta(options, fleet.earliest()))
      await writeMeta(client, key, value);
    await writeMeta(client, "fleet", SYNTHETIC_FLEET);
    await writeMeta(client, "seed", String(options.seed));
    await writeMeta(client, META_KEYS.seededOn, options.today);
    await writeMeta(client, META_KEYS.seededVehicles, String(count));
    return "seeded";
  });
}

/**
 * COPY into an empty table, PostgreSQL's fastest load, in its best conditions: the table
 * truncated in this transaction, so COPY FREEZE writes the rows already frozen and their pages
 * all-visible (no later vacuum rewrites them), and no index but the primary key while the rows
 * go in. The lookup index is then built by sorting, and the statistics gathered before the
 * first lookup is planned.
 */
async function loadVehicles(
  client: PgClient,
  fleet: Iterable<VehicleFacts>,
): Promise<number> {
  const indexes = await secondaryIndexes(client);
  for (const index of indexes) await client.query(`DROP INDEX ${index.name}`);
  // RESTART IDENTITY: the ids run from 1 in the fleet's order, as the SQLite store's do.
  await client.query("TRUNCATE vehicles RESTART IDENTITY");
  const copy = client.query(copyFrom(COPY_VEHICLES_SQL));
  await pipeline(Readable.from(vehicleLines(fleet)), copy);
  for (const index of indexes) await client.query(index.definition);
  await client.query("ANALYZE vehicles");
  // PostgreSQL's own count of the rows it took ("COPY n").
  return copy.rowCount;
}

/**
 * The vehicles' indexes other than the primary key, as the migrations made them (read from
 * the catalogue, so an index a later migration adds is rebuilt after the load too).
 */
async function secondaryIndexes(client: PgClient) {
  const { rows } = await client.query<{ name: string; definition: string }>(
    `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS definition
     FROM pg_index i
     WHERE i.indrelid = 'vehicles'::regclass AND NOT i.indisprimary
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)`,
  );
  return rows;
}
