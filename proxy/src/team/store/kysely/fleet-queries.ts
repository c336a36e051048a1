import type { Selectable } from "kysely";
import {
  DuplicateFleetNameError,
  type FleetStore,
  type StoredFleet,
} from "../fleet-store.ts";
import type { KyselyStore } from "./spelling.ts";
import {
  savedFleetIds,
  savedFleets,
  withFleetTables,
  type FleetsTable,
} from "./fleet-tables.ts";

/**
 * A saved fleet's reads and its rename, one text for both engines. Each engine's folder keeps
 * the saves (SQLite's a chunk a transaction, fleet-writes.ts; PostgreSQL's in one transaction
 * under a lock), the delete with its deliveries, and the read of a fleet's vehicles (SQLite's
 * a page at a time). Drafts (version 0) are SQLite's alone; the filter costs PostgreSQL nothing.
 */
export type SharedFleetQueries = Pick<
  FleetStore,
  "listFleets" | "findFleet" | "renameFleet" | "watchedRegistrations"
>;

type FleetRow = Selectable<FleetsTable> & {
  vehicle_count: number | string | bigint;
};

export function sharedFleetQueries(
  { db, spelling: { readJson } }: KyselyStore,
  /** The engine's word for a second fleet of that name (in any case). */
  isUniqueName: (error: unknown) => boolean,
): SharedFleetQueries {
  const fleets = withFleetTables(db);
  const toFleet = (row: FleetRow): StoredFleet => ({
    id: row.id,
    name: row.name,
    columns: readJson(row.columns) as string[],
    version: row.version,
    vehicleCount: Number(row.vehicle_count),
    createdAt: Number(row.created_at),
    createdBy: row.created_by,
    updatedAt: Number(row.updated_at),
    updatedBy: row.updated_by,
  });
  const saved = () =>
    savedFleets(fleets)
      .selectAll("fleets")
      .select((eb) =>
        eb
          .selectFrom("fleet_vehicles")
          .select(eb.fn.countAll().as("n"))
          .whereRef("fleet_vehicles.fleet_id", "=", "fleets.id")
          .as("vehicle_count"),
      );
  const findFleet = async (id: string) => {
    const row = await saved().where("id", "=", id).executeTakeFirst();
    return row && toFleet(row as FleetRow);
  };
  return {
    findFleet,
    async listFleets() {
      // lower() folds ASCII alone in SQLite, as its COLLATE NOCASE does.
      const rows = await saved()
        .orderBy((eb) => eb.fn("lower", ["name"]))
        .execute();
      return rows.map((row) => toFleet(row as FleetRow));
    },
    async renameFleet(id, name, actor) {
      try {
        await fleets
          .updateTable("fleets")
          .set({ name, updated_at: actor.at, updated_by: actor.email })
          .where("id", "=", id)
          .execute();
      } catch (error) {
        if (isUniqueName(error)) throw new DuplicateFleetNameError(name);
        throw error;
      }
      return findFleet(id);
    },
    async watchedRegistrations() {
      const rows = await fleets
        .selectFrom("fleet_vehicles")
        .select("registration")
        .distinct()
        .where("fleet_id", "in", savedFleetIds(fleets))
        .orderBy("registration")
        .execute();
      return rows.map((row) => row.registration);
    },
  };
}
