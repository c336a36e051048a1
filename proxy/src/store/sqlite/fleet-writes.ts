// A saved fleet's vehicles are written in short transactions, the event loop free between
// them: the proxy has one connection to its SQLite file, so one transaction of 100,000 rows
// (seconds) would stall every other request, and none may stay open across an await (another
// request's statements would join it). A new fleet stays a draft (version 0, seen by no read)
// until its last chunk is in; saves of this store run one at a time, so the caps checked
// before the chunks still hold after them.
import { setImmediate as nextTurn } from "node:timers/promises";
import type { DatabaseSync } from "node:sqlite";
import type { FleetVehicle } from "@vics/shared";
import { inTransaction } from "@vics/shared/server/sqlite";
import { FleetCapError, type FleetCaps } from "../fleet-store.ts";

/** Rows per transaction: a few milliseconds each. */
export const FLEET_CHUNK = 1_000;

/** A draft left by a save that never finished (the process stopped) is removed after this. */
const DRAFT_TTL_MS = 10 * 60_000;

export function fleetWrites(db: DatabaseSync) {
  const insertVehicle = db.prepare(
    `INSERT INTO fleet_vehicles (fleet_id, registration, position, cells, added_at)
     VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (fleet_id, registration)
       DO UPDATE SET position = excluded.position, cells = excluded.cells`,
  );
  const removeVehicles = db.prepare(
    `DELETE FROM fleet_vehicles WHERE fleet_id = ?
     AND registration IN (SELECT value FROM json_each(?))`,
  );
  const someVehicles = db.prepare(
    "SELECT registration FROM fleet_vehicles WHERE fleet_id = ? LIMIT ?",
  );
  const fleetCount = db.prepare("SELECT count(*) AS n FROM fleets");
  const vehicleCount = db.prepare("SELECT count(*) AS n FROM fleet_vehicles");
  const ownCount = db.prepare(
    "SELECT count(*) AS n FROM fleet_vehicles WHERE fleet_id = ?",
  );
  const staleDrafts = db.prepare(
    "SELECT id FROM fleets WHERE version = 0 AND created_at < ?",
  );
  const removeFleet = db.prepare("DELETE FROM fleets WHERE id = ?");
  const count = (statement: typeof fleetCount, ...args: string[]) =>
    Number((statement.get(...args) as { n: number }).n);

  let queue: Promise<unknown> = Promise.resolve();

  /** Removes a fleet's vehicles a chunk at a time, then the fleet itself. */
  async function removeInChunks(fleetId: string): Promise<void> {
    for (;;) {
      const rows = someVehicles.all(fleetId, FLEET_CHUNK) as {
        registration: string;
      }[];
      if (rows.length === 0) break;
      inTransaction(db, () =>
        removeVehicles.run(
          fleetId,
          JSON.stringify(rows.map((row) => row.registration)),
        ),
      );
      await nextTurn();
    }
    removeFleet.run(fleetId);
  }

  return {
    /** Runs saves one at a time, in the order asked. */
    oneAtATime<T>(work: () => Promise<T>): Promise<T> {
      const turn = queue.then(work, work);
      queue = turn.catch(() => undefined);
      return turn;
    },

    /** Drafts of saves that never finished: removed before a new one starts. */
    async removeStaleDrafts(now: number): Promise<void> {
      const stale = staleDrafts.all(now - DRAFT_TTL_MS) as { id: string }[];
      for (const { id } of stale) await removeInChunks(id);
    },

    removeInChunks,

    /** Throws FleetCapError when one more fleet would pass the cap. */
    checkFleetRoom(caps: FleetCaps | undefined): void {
      if (caps && count(fleetCount) >= caps.maxFleets)
        throw new FleetCapError("fleets", caps.maxFleets);
    },

    /** Throws FleetCapError when `fleetId` holding `size` vehicles would pass the cap. */
    checkVehicleRoom(
      caps: FleetCaps | undefined,
      fleetId: string,
      size: number,
    ): void {
      if (!caps) return;
      const others = count(vehicleCount) - count(ownCount, fleetId);
      if (others + size > caps.maxWatchedVehicles)
        throw new FleetCapError("watched-vehicles", caps.maxWatchedVehicles);
    },

    /**
     * Writes `vehicles` to the fleet in order, a chunk a transaction; a vehicle it already
     * holds keeps when it joined.
     */
    async writeInChunks(
      fleetId: string,
      vehicles: readonly FleetVehicle[],
      at: number,
    ): Promise<void> {
      for (let start = 0; start < vehicles.length; start += FLEET_CHUNK) {
        const end = Math.min(start + FLEET_CHUNK, vehicles.length);
        inTransaction(db, () => {
          for (let position = start; position < end; position++) {
            const vehicle = vehicles[position]!;
            insertVehicle.run(
              fleetId,
              vehicle.registration,
              position,
              JSON.stringify(vehicle.cells),
              at,
            );
          }
        });
        await nextTurn();
      }
    },

    /** Removes the vehicles of `registrations`, a chunk a transaction. */
    async removeVehicles(
      fleetId: string,
      registrations: readonly string[],
    ): Promise<void> {
      for (let start = 0; start < registrations.length; start += FLEET_CHUNK) {
        const chunk = registrations.slice(start, start + FLEET_CHUNK);
        inTransaction(db, () =>
          removeVehicles.run(fleetId, JSON.stringify(chunk)),
        );
        await nextTurn();
      }
    },
  };
}
