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
import {
  FleetCapError,
  type FleetCaps,
  type StoredFleetVehicle,
} from "../fleet-store.ts";

/** Rows per transaction: a few milliseconds each. */
export const FLEET_CHUNK = 500;
/** Rows per read: a few milliseconds each. */
const READ_PAGE = 2_000;

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
  // Keyset pages in the key's order, each its own short statement.
  const vehiclePage = db.prepare(
    `SELECT registration, position, cells, added_at FROM fleet_vehicles
     WHERE fleet_id = ? AND registration > ? ORDER BY registration LIMIT ?`,
  );
  const registrationPage = db.prepare(
    `SELECT registration FROM fleet_vehicles
     WHERE fleet_id = ? AND registration > ? ORDER BY registration LIMIT ?`,
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

  /**
   * A chunk's transaction commits without waiting for the disk (synchronous = NORMAL, for it
   * alone): the save's last commit waits as every commit does, and in WAL mode that makes the
   * chunks before it durable too. A hundred waits for the disk would each hold the loop.
   */
  function chunk(work: () => void): void {
    const { synchronous } = db.prepare("PRAGMA synchronous").get() as {
      synchronous: number;
    };
    db.exec("PRAGMA synchronous = NORMAL");
    try {
      inTransaction(db, work);
    } finally {
      db.exec(`PRAGMA synchronous = ${Number(synchronous)}`);
    }
  }

  /** Removes a fleet's vehicles a chunk at a time, then the fleet itself. */
  async function removeInChunks(fleetId: string): Promise<void> {
    for (;;) {
      const rows = someVehicles.all(fleetId, FLEET_CHUNK) as {
        registration: string;
      }[];
      if (rows.length === 0) break;
      chunk(() =>
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

    /** The registrations the fleet holds, read a page at a time between turns of the loop. */
    async heldRegistrations(fleetId: string): Promise<string[]> {
      const held: string[] = [];
      let after = "";
      for (;;) {
        const rows = registrationPage.all(fleetId, after, READ_PAGE * 5) as {
          registration: string;
        }[];
        for (const row of rows) held.push(row.registration);
        if (rows.length < READ_PAGE * 5) return held;
        after = rows.at(-1)!.registration;
        await nextTurn();
      }
    },

    /** The fleet's vehicles in their order, read a page at a time between turns of the loop. */
    async readInPages(fleetId: string): Promise<StoredFleetVehicle[]> {
      const byPosition: (StoredFleetVehicle | undefined)[] = [];
      let after = "";
      for (;;) {
        const rows = vehiclePage.all(fleetId, after, READ_PAGE) as {
          registration: string;
          position: number;
          cells: string;
          added_at: number;
        }[];
        for (const row of rows)
          byPosition[row.position] = {
            registration: row.registration,
            cells: JSON.parse(row.cells) as string[],
            addedAt: row.added_at,
          };
        if (rows.length < READ_PAGE) break;
        after = rows.at(-1)!.registration;
        await nextTurn();
      }
      // Positions are 0 to n - 1 once a save is done; one under way may leave gaps.
      return byPosition.filter((vehicle) => vehicle !== undefined);
    },

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
     * Writes `vehicles` to the fleet (each with its position), a chunk a transaction; a vehicle
     * it already holds keeps when it joined.
     */
    async writeInChunks(
      fleetId: string,
      vehicles: readonly FleetVehicle[],
      at: number,
    ): Promise<void> {
      const order = await byRegistration(vehicles, (v) => v.registration);
      for (let start = 0; start < order.length; start += FLEET_CHUNK) {
        const end = Math.min(start + FLEET_CHUNK, order.length);
        chunk(() => {
          for (let next = start; next < end; next++) {
            const position = order[next]!;
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
      const order = await byRegistration(registrations, (r) => r);
      for (let start = 0; start < order.length; start += FLEET_CHUNK) {
        const chunkOf = order
          .slice(start, start + FLEET_CHUNK)
          .map((index) => registrations[index]);
        chunk(() => removeVehicles.run(fleetId, JSON.stringify(chunkOf)));
        await nextTurn();
      }
    },
  };
}

/**
 * The indexes of `registrations` in their SQLite (binary) order, sorted a bucket (their first
 * two characters) at a time between turns of the event loop. Rows written in key order fill
 * the key's pages one after another; in the list's own order each chunk would touch, and
 * rewrite, a page of the table and of its index for almost every vehicle.
 */
async function byRegistration<T>(
  items: readonly T[],
  registrationOf: (item: T) => string,
): Promise<number[]> {
  const registrations = items.map(registrationOf);
  const buckets = new Map<string, number[]>();
  for (let index = 0; index < registrations.length; index++) {
    const prefix = registrations[index]!.slice(0, 2);
    const bucket = buckets.get(prefix);
    if (bucket) bucket.push(index);
    else buckets.set(prefix, [index]);
    if (index % (FLEET_CHUNK * 20) === FLEET_CHUNK * 20 - 1) await nextTurn();
  }
  const binary = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const order: number[] = [];
  let sorted = 0;
  for (const prefix of [...buckets.keys()].sort(binary)) {
    const bucket = buckets.get(prefix)!;
    bucket.sort((a, b) => binary(registrations[a]!, registrations[b]!));
    for (const index of bucket) order.push(index);
    sorted += bucket.length;
    if (sorted >= FLEET_CHUNK * 4) {
      sorted = 0;
      await nextTurn();
    }
  }
  return order;
}
