import type { Db, Json } from "./database.ts";

/**
 * The fleets' and re-checks' tables for the queries both engines share, beside database.ts's:
 * `withFleetTables` gives an engine's Kysely these too, and is their one declaration. SQLite's staging tables for its chunked writes are its
 * own (sqlite/fleet-writes.ts).
 */
export interface FleetsTable {
  id: string;
  name: string;
  /** JSON: text in SQLite, jsonb in PostgreSQL. */
  columns: Json;
  /** 0 for SQLite's draft of a new fleet still being written; 1 and up once saved. */
  version: number;
  created_at: number;
  created_by: string | null;
  updated_at: number;
  updated_by: string | null;
}

export interface FleetVehiclesTable {
  fleet_id: string;
  registration: string;
  position: number;
  cells: Json;
  added_at: number;
}

export interface WatchedVehiclesTable {
  registration: string;
  facts: Json | null;
  checked_at: number | null;
  unknown_since: number | null;
}

export interface FleetBaselinesTable {
  fleet_id: string;
  run_id: number;
  at: number;
  vehicles: number;
  attention: number;
}

// A type, not an interface: withTables wants an index signature, which only a type alias gives.
export type FleetTables = {
  fleets: FleetsTable;
  fleet_vehicles: FleetVehiclesTable;
  watched_vehicles: WatchedVehiclesTable;
  fleet_baselines: FleetBaselinesTable;
};

export const withFleetTables = (db: Db) => db.withTables<FleetTables>();

export type FleetDb = ReturnType<typeof withFleetTables>;

/**
 * The saved fleets: a draft (version 0, SQLite's new fleet still being written) is seen by no
 * read and its vehicles count for no re-check yet. notification-sql.ts writes the same rule.
 */
export const savedFleets = (db: FleetDb) =>
  db.selectFrom("fleets").where("fleets.version", ">", 0);

export const savedFleetIds = (db: FleetDb) => savedFleets(db).select("id");
