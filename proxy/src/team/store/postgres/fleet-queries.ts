import { randomUUID } from "node:crypto";
import type { PgClient, PgPool } from "@vics/server-kit/postgres";
import { inPgTransaction } from "@vics/server-kit/postgres";
import { reachingPostgres } from "@vics/server-kit/postgres-errors";
import type { FleetVehicle } from "@vics/shared";
import {
  DuplicateFleetNameError,
  FleetCapError,
  FleetVersionError,
  type FleetCaps,
  type FleetStore,
  type StoredFleet,
} from "../fleet-store.ts";
import type { Sql } from "./database.ts";
import type { KyselyStore } from "../kysely/spelling.ts";
import { sharedFleetQueries } from "../kysely/fleet-queries.ts";
import { FLEET_DELETED } from "../delivery-rows.ts";

const isUniqueName = (error: unknown) =>
  (error as { code?: string }).code === "23505" &&
  (error as { constraint?: string }).constraint === "fleets_name_unique";

/** Rows per INSERT: 100,000 vehicles go in ten statements of arrays. */
const BATCH = 10_000;

async function insertVehicles(
  client: PgClient,
  fleetId: string,
  vehicles: readonly FleetVehicle[],
  addedAt: (registration: string) => number,
): Promise<void> {
  for (let start = 0; start < vehicles.length; start += BATCH) {
    const batch = vehicles.slice(start, start + BATCH);
    await client.query(
      `INSERT INTO fleet_vehicles (fleet_id, registration, position, cells, added_at)
       SELECT $1, registration, position, cells::jsonb, added_at
       FROM unnest($2::text[], $3::int[], $4::text[], $5::bigint[])
         AS v (registration, position, cells, added_at)`,
      [
        fleetId,
        batch.map((v) => v.registration),
        batch.map((_, i) => start + i),
        batch.map((v) => JSON.stringify(v.cells)),
        batch.map((v) => addedAt(v.registration)),
      ],
    );
  }
}

/**
 * Saves take one lock, held to their commit, so that the caps checked in one hold against
 * every other replica's save.
 */
async function lockSaves(client: PgClient): Promise<void> {
  await client.query(
    "SELECT pg_advisory_xact_lock(hashtext('vics.fleet-saves'))",
  );
}

async function checkFleetRoom(client: PgClient, caps: FleetCaps | undefined) {
  if (!caps) return;
  const { rows } = await client.query<{ n: string }>(
    "SELECT count(*) AS n FROM fleets",
  );
  if (Number(rows[0]!.n) >= caps.maxFleets)
    throw new FleetCapError("fleets", caps.maxFleets);
}

/** After the writes, in their transaction: a throw rolls them back. */
async function checkVehicleRoom(client: PgClient, caps: FleetCaps | undefined) {
  if (!caps) return;
  const { rows } = await client.query<{ n: string }>(
    "SELECT count(*) AS n FROM fleet_vehicles",
  );
  if (Number(rows[0]!.n) > caps.maxWatchedVehicles)
    throw new FleetCapError("watched-vehicles", caps.maxWatchedVehicles);
}

export function fleetQueries(
  pool: PgPool,
  sql: Sql,
  kysely: KyselyStore,
): FleetStore {
  const transaction = <T>(work: (client: PgClient) => Promise<T>) =>
    reachingPostgres(() => inPgTransaction(pool, work));
  const shared = sharedFleetQueries(kysely, isUniqueName);
  const find = shared.findFleet;

  return {
    ...shared,
    async createFleet(name, contents, actor, caps) {
      const id = randomUUID();
      try {
        await transaction(async (client) => {
          await lockSaves(client);
          await checkFleetRoom(client, caps);
          await client.query(
            `INSERT INTO fleets (id, name, columns, version, created_at, created_by, updated_at, updated_by)
             VALUES ($1, $2, $3, 1, $4, $5, $4, $5)`,
            [id, name, JSON.stringify(contents.columns), actor.at, actor.email],
          );
          await insertVehicles(client, id, contents.vehicles, () => actor.at);
          await checkVehicleRoom(client, caps);
        });
      } catch (error) {
        if (isUniqueName(error)) throw new DuplicateFleetNameError(name);
        throw error;
      }
      return (await find(id)) as StoredFleet;
    },
    async fleetVehicles(id) {
      const { rows } = await sql<{
        registration: string;
        cells: string[];
        added_at: string;
      }>(
        `SELECT registration, cells, added_at FROM fleet_vehicles
         WHERE fleet_id = $1 ORDER BY position`,
        [id],
      );
      return rows.map((row) => ({
        registration: row.registration,
        cells: row.cells,
        addedAt: Number(row.added_at),
      }));
    },
    async replaceFleetVehicles(id, version, contents, actor, caps) {
      const replaced = await transaction(async (client) => {
        await lockSaves(client);
        // The row lock holds off another update of this fleet until this one commits.
        const { rows } = await client.query<{ version: number }>(
          "SELECT version FROM fleets WHERE id = $1 FOR UPDATE",
          [id],
        );
        const current = rows[0];
        if (!current) return false;
        if (current.version !== version)
          throw new FleetVersionError(version, current.version);
        const { rows: kept } = await client.query<{
          registration: string;
          added_at: string;
        }>(
          "DELETE FROM fleet_vehicles WHERE fleet_id = $1 RETURNING registration, added_at",
          [id],
        );
        const since = new Map(
          kept.map((row) => [row.registration, Number(row.added_at)]),
        );
        await insertVehicles(
          client,
          id,
          contents.vehicles,
          (registration) => since.get(registration) ?? actor.at,
        );
        await checkVehicleRoom(client, caps);
        await client.query(
          `UPDATE fleets SET columns = $2, version = version + 1, updated_at = $3, updated_by = $4
           WHERE id = $1`,
          [id, JSON.stringify(contents.columns), actor.at, actor.email],
        );
        return true;
      });
      return replaced ? find(id) : undefined;
    },
    async deleteFleet(id) {
      // Its pending deliveries go with it, at once (one statement, so together).
      const { rowCount } = await sql(
        `WITH dropped AS (
           UPDATE deliveries SET status = 'dropped', note = $2, next_attempt_at = NULL
           WHERE fleet_id = $1 AND status = 'pending')
         DELETE FROM fleets WHERE id = $1`,
        [id, FLEET_DELETED],
      );
      return (rowCount ?? 0) > 0;
    },
  };
}
