// A saved fleet's vehicles are written in short transactions, the event loop free between
// them: the proxy has one connection to its SQLite file, so one transaction of 100,000 rows
// (seconds) would stall every other request, and none may stay open across an await (another
// request's statements would join it). A new fleet stays a draft (version 0, seen by no read)
// until its last chunk is in; saves of this store run one at a time, so the caps checked
// before the chunks still hold after them. A new list for a fleet is staged whole in
// fleet_updates first, and applied from there (updateInChunks): a process stopped part way
// through leaves an update that finishPending rolls back (not yet staged whole) or forward,
// and a draft that the store removes when it next opens (draftIds).
import { setImmediate as nextTurn } from "node:timers/promises";
import type { DatabaseSync } from "node:sqlite";
import type { FleetVehicle } from "@vics/shared";
import { inTransaction } from "@vics/server-kit/sqlite";
import {
  FleetCapError,
  type FleetActor,
  type FleetCaps,
  type FleetContents,
  type StoredFleetVehicle,
} from "../fleet-store.ts";

/** Rows per transaction: a few milliseconds each. */
export const FLEET_CHUNK = 500;
/** Rows per read: a few milliseconds each. */
const READ_PAGE = 2_000;

/** A draft left by a save that never finished (the process stopped) is removed after this. */
const DRAFT_TTL_MS = 10 * 60_000;
/** Staged chunks of an update written a transaction: about 1 MB, a few milliseconds. */
const STAGE_BATCH = 10;

interface PendingUpdate {
  version: number;
  columns: string;
  updated_at: number;
  updated_by: string | null;
  ready: number;
}

export function fleetWrites(
  db: DatabaseSync,
  afterChunk?: () => Promise<void> | void,
) {
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
  // The caps count drafts: those left by a stopped process are gone by the first save (removed
  // on open, or after DRAFT_TTL_MS), so what is left is another process's save under way.
  const fleetCount = db.prepare("SELECT count(*) AS n FROM fleets");
  const vehicleCount = db.prepare("SELECT count(*) AS n FROM fleet_vehicles");
  const ownCount = db.prepare(
    "SELECT count(*) AS n FROM fleet_vehicles WHERE fleet_id = ?",
  );
  const staleDrafts = db.prepare(
    "SELECT id FROM fleets WHERE version = 0 AND created_at < ?",
  );
  const drafts = db.prepare("SELECT id FROM fleets WHERE version = 0");
  const isDraft = db.prepare(
    "SELECT 1 AS found FROM fleets WHERE id = ? AND version = 0",
  );
  const publish = db.prepare(
    "UPDATE fleets SET version = 1 WHERE id = ? AND version = 0",
  );
  const removeFleet = db.prepare("DELETE FROM fleets WHERE id = ?");
  const fleetExists = db.prepare("SELECT 1 AS found FROM fleets WHERE id = ?");
  // An update (schema.ts, fleet_updates): at most one a fleet, for the version after its own.
  const startUpdate = db.prepare(
    `INSERT INTO fleet_updates (fleet_id, version, columns, updated_at, updated_by)
     SELECT id, version + 1, ?, ?, ? FROM fleets WHERE id = ? AND version = ?`,
  );
  const updateOf = db.prepare(
    `SELECT version, columns, updated_at, updated_by, ready FROM fleet_updates
     WHERE fleet_id = ?`,
  );
  const pendingUpdates = db.prepare(
    "SELECT fleet_id, version FROM fleet_updates ORDER BY fleet_id",
  );
  const stage = db.prepare(
    "INSERT INTO fleet_update_chunks (fleet_id, seq, kind, rows) VALUES (?, ?, ?, ?)",
  );
  const markReady = db.prepare(
    "UPDATE fleet_updates SET ready = 1 WHERE fleet_id = ?",
  );
  const firstStaged = db.prepare(
    `SELECT seq, kind, rows FROM fleet_update_chunks WHERE fleet_id = ?
     ORDER BY seq LIMIT 1`,
  );
  const dropStaged = db.prepare(
    "DELETE FROM fleet_update_chunks WHERE fleet_id = ? AND seq = ?",
  );
  const dropSomeStaged = db.prepare(
    `DELETE FROM fleet_update_chunks WHERE fleet_id = ? AND seq IN
     (SELECT seq FROM fleet_update_chunks WHERE fleet_id = ? ORDER BY seq LIMIT ?)`,
  );
  const dropUpdate = db.prepare("DELETE FROM fleet_updates WHERE fleet_id = ?");
  const finishFleet = db.prepare(
    "UPDATE fleets SET columns = ?, version = ?, updated_at = ?, updated_by = ? WHERE id = ?",
  );
  const count = (statement: typeof fleetCount, ...args: string[]) =>
    Number((statement.get(...args) as { n: number }).n);

  let queue: Promise<unknown> = Promise.resolve();

  /**
   * A chunk's transaction commits without waiting for the disk (synchronous = NORMAL, for it
   * alone): the save's last commit waits as every commit does, and in WAL mode that makes the
   * chunks before it durable too. A hundred waits for the disk would each hold the loop.
   */
  function chunk<T>(work: () => T): T {
    const { synchronous } = db.prepare("PRAGMA synchronous").get() as {
      synchronous: number;
    };
    db.exec("PRAGMA synchronous = NORMAL");
    try {
      return inTransaction(db, work);
    } finally {
      db.exec(`PRAGMA synchronous = ${Number(synchronous)}`);
    }
  }

  /**
   * The fleet's update for `version`, when it is still to be done (and, with `ready`, staged
   * whole): each chunk asks first, in its own transaction, so a fleet deleted meanwhile, or an
   * update another process has finished (a second process on the file finishes what it finds
   * when it opens), stops it.
   */
  function updateFor(
    fleetId: string,
    version: number,
    ready: boolean,
  ): PendingUpdate | undefined {
    const update = updateOf.get(fleetId) as PendingUpdate | undefined;
    return update?.version === version && update.ready === Number(ready)
      ? update
      : undefined;
  }

  /**
   * Applies a staged update a chunk a transaction, each chunk deleted as it is applied, so one
   * stopped part way through goes on from where it stopped; the last transaction moves the fleet
   * to its new version and deletes the update. Done as soon as the update is gone.
   */
  async function applyStaged(fleetId: string, version: number): Promise<void> {
    for (;;) {
      const more = chunk(() => {
        const update = updateFor(fleetId, version, true);
        if (!update) return false;
        const next = firstStaged.get(fleetId) as
          { seq: number; kind: "remove" | "write"; rows: string } | undefined;
        if (!next) return true;
        if (next.kind === "remove") removeVehicles.run(fleetId, next.rows);
        else
          for (const [registration, position, cells] of JSON.parse(
            next.rows,
          ) as [string, number, string[]][])
            insertVehicle.run(
              fleetId,
              registration,
              position,
              JSON.stringify(cells),
              update.updated_at,
            );
        dropStaged.run(fleetId, next.seq);
        return undefined;
      });
      if (more === false) return;
      if (more === true) break;
      await afterChunk?.();
      await nextTurn();
    }
    // The save's one commit that waits for the disk (and makes the chunks before it durable).
    inTransaction(db, () => {
      const update = updateFor(fleetId, version, true);
      if (!update) return;
      finishFleet.run(
        update.columns,
        version,
        update.updated_at,
        update.updated_by,
        fleetId,
      );
      dropUpdate.run(fleetId);
    });
  }

  /**
   * Deletes an update not yet staged whole, a few staged chunks a transaction: its fleet was
   * never touched, and stays as it was.
   */
  async function dropUnready(fleetId: string, version: number): Promise<void> {
    for (;;) {
      const dropped = chunk(() =>
        updateFor(fleetId, version, false)
          ? Number(dropSomeStaged.run(fleetId, fleetId, STAGE_BATCH).changes)
          : -1,
      );
      if (dropped < 0) return;
      if (dropped === 0) break;
      await nextTurn();
    }
    chunk(() => {
      if (updateFor(fleetId, version, false)) dropUpdate.run(fleetId);
    });
  }

  /**
   * An update gone before it was staged whole: its fleet was deleted (answered as deleted), or
   * another process opening the file took it for one a stopped process left, and dropped it.
   */
  function stopped(fleetId: string): true {
    if (fleetExists.get(fleetId))
      throw new Error(
        "The fleet's new list was set aside part way through: please save it again",
      );
    return true;
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

    /**
     * The drafts on the file, taken when the store opens: none is this process's (it has saved
     * nothing yet), so each was left by a process that stopped, or is another's save under way
     * (scripts/users opening the file beside a running proxy), which then stops and fails as one
     * to save again, as an update another process finishes does.
     */
    draftIds(): string[] {
      return (drafts.all() as { id: string }[]).map((row) => row.id);
    },

    /** Removes the drafts `ids` still on the file, a chunk at a time. */
    async removeDrafts(ids: readonly string[]): Promise<void> {
      for (const id of ids) if (isDraft.get(id)) await removeInChunks(id);
    },

    /** Makes the draft a fleet; throws when it was taken away (see writeInChunks). */
    publish(fleetId: string): void {
      if (Number(publish.run(fleetId).changes) === 0) draftGone();
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
     * Writes `vehicles` to the new fleet's draft (each with its position), a chunk a
     * transaction; throws when the draft was taken away meanwhile.
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
          // Another process opening the file removes the drafts it finds (draftIds).
          if (!isDraft.get(fleetId)) draftGone();
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
        await afterChunk?.();
        await nextTurn();
      }
    },

    /** Whether an update was left part way through (by a process that stopped). */
    hasPendingUpdates(): boolean {
      return pendingUpdates.all().length > 0;
    },

    /**
     * Finishes every update left part way through: one staged whole is applied to the end, one
     * not yet staged whole is dropped (its fleet as it was). The event loop turns between chunks.
     */
    async finishPending(): Promise<void> {
      const pending = pendingUpdates.all() as {
        fleet_id: string;
        version: number;
      }[];
      for (const { fleet_id: fleetId, version } of pending) {
        if (updateFor(fleetId, version, true))
          await applyStaged(fleetId, version);
        else await dropUnready(fleetId, version);
      }
    },

    /**
     * Makes the fleet `contents` (the vehicles of `gone` removed), a chunk a transaction, so
     * that a crash at any point leaves an update the next open finishes: first the update is
     * staged (fleet_updates; the fleet untouched), then marked ready in one short transaction,
     * then applied from the stage. False when the fleet was not at `version` (or was deleted)
     * when it began; a fleet deleted part way through stops it.
     */
    async updateInChunks(
      fleetId: string,
      version: number,
      contents: FleetContents,
      gone: readonly string[],
      actor: FleetActor,
    ): Promise<boolean> {
      const { vehicles } = contents;
      const order = await byRegistration(vehicles, (v) => v.registration);
      const removals = await byRegistration(gone, (r) => r);
      const started = chunk(() =>
        Number(
          startUpdate.run(
            JSON.stringify(contents.columns),
            actor.at,
            actor.email,
            fleetId,
            version,
          ).changes,
        ),
      );
      if (started === 0) return false;
      const next = version + 1;
      // The staged chunks, in the order they are applied: the removals, then the list.
      const staged: { kind: "remove" | "write"; rows: () => string }[] = [];
      for (let start = 0; start < removals.length; start += FLEET_CHUNK) {
        const slice = removals.slice(start, start + FLEET_CHUNK);
        staged.push({
          kind: "remove",
          rows: () => JSON.stringify(slice.map((index) => gone[index])),
        });
      }
      for (let start = 0; start < order.length; start += FLEET_CHUNK) {
        const slice = order.slice(start, start + FLEET_CHUNK);
        staged.push({
          kind: "write",
          rows: () =>
            JSON.stringify(
              slice.map((position) => {
                const vehicle = vehicles[position]!;
                return [vehicle.registration, position, vehicle.cells];
              }),
            ),
        });
      }
      try {
        for (let seq = 0; seq < staged.length; seq += STAGE_BATCH) {
          const batch = staged
            .slice(seq, seq + STAGE_BATCH)
            .map((each) => ({ kind: each.kind, rows: each.rows() }));
          const going = chunk(() => {
            if (!updateFor(fleetId, next, false)) return false;
            batch.forEach((each, index) =>
              stage.run(fleetId, seq + index, each.kind, each.rows),
            );
            return true;
          });
          if (!going) return stopped(fleetId);
          await afterChunk?.();
          await nextTurn();
        }
      } catch (error) {
        await dropUnready(fleetId, next);
        throw error;
      }
      // From here on the update is done, by this process or, if it stops, the next to open.
      const ready = chunk(() =>
        updateFor(fleetId, next, false) ? markReady.run(fleetId) : undefined,
      );
      if (!ready) return stopped(fleetId);
      await afterChunk?.();
      await nextTurn();
      await applyStaged(fleetId, next);
      return true;
    },
  };
}

/** A new fleet's draft was removed part way through its save (see draftIds). */
function draftGone(): never {
  throw new Error(
    "The new fleet was set aside part way through: please save it again",
  );
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
