import { randomUUID } from "node:crypto";
import type { DatabaseSync } from "node:sqlite";
import {
  DuplicateFleetNameError,
  FleetVersionError,
  type FleetStore,
  type StoredFleet,
} from "../fleet-store.ts";
import { inTransaction } from "@vics/server-kit/sqlite";
import { FLEET_DELETED } from "../delivery-rows.ts";
import { fleetWrites } from "./fleet-writes.ts";
import type { KyselyStore } from "../kysely/spelling.ts";
import { sharedFleetQueries } from "../kysely/fleet-queries.ts";

const isUniqueName = (error: unknown) =>
  error instanceof Error &&
  /UNIQUE constraint failed: fleets\.name/.test(error.message);

export function fleetQueries(
  db: DatabaseSync,
  kysely: KyselyStore,
  afterChunk?: () => Promise<void> | void,
): FleetStore {
  // Version 0: a draft whose vehicles are still being written (fleet-writes.ts), seen by no read.
  const insertFleet = db.prepare(
    `INSERT INTO fleets (id, name, columns, version, created_at, created_by, updated_at, updated_by)
     VALUES (?, ?, ?, 0, ?, ?, ?, ?)`,
  );
  const clear = db.prepare("DELETE FROM fleet_vehicles WHERE fleet_id = ?");
  const remove = db.prepare("DELETE FROM fleets WHERE id = ?");
  const dropDeliveries = db.prepare(
    `UPDATE deliveries SET status = 'dropped', note = ?, next_attempt_at = NULL
     WHERE fleet_id = ? AND status = 'pending'`,
  );
  const shared = sharedFleetQueries(kysely, isUniqueName);
  const find = shared.findFleet;
  const writes = fleetWrites(db, afterChunk);

  // An update a stopped process left part way through (fleet-writes.ts) is finished first, and
  // the drafts of new fleets left on the file removed: at once on open, before the next save,
  // and before any read of the fleets until it is done.
  let draftsLeft = writes.draftIds();
  let leftOver = draftsLeft.length > 0 || writes.hasPendingUpdates();
  let finishing: Promise<void> | undefined;
  /** Within a save's turn. */
  async function finishLeftOver(): Promise<void> {
    if (!leftOver) return;
    await writes.removeDrafts(draftsLeft);
    draftsLeft = [];
    await writes.finishPending();
    leftOver = false;
  }
  /** For a read: waits for the left-over update, tried again if the last try failed. */
  function settled(): Promise<void> | undefined {
    if (!leftOver) return undefined;
    finishing ??= writes.oneAtATime(finishLeftOver).finally(() => {
      finishing = undefined;
    });
    return finishing;
  }
  settled()?.catch(() => undefined);

  return {
    async createFleet(name, contents, actor, caps) {
      return writes.oneAtATime(async () => {
        await finishLeftOver();
        await writes.removeStaleDrafts(actor.at);
        const id = randomUUID();
        try {
          inTransaction(db, () => {
            writes.checkFleetRoom(caps);
            writes.checkVehicleRoom(caps, id, contents.vehicles.length);
            insertFleet.run(
              id,
              name,
              JSON.stringify(contents.columns),
              actor.at,
              actor.email,
              actor.at,
              actor.email,
            );
          });
        } catch (error) {
          if (isUniqueName(error)) throw new DuplicateFleetNameError(name);
          throw error;
        }
        try {
          await writes.writeInChunks(id, contents.vehicles, actor.at);
          writes.publish(id);
        } catch (error) {
          await writes.removeInChunks(id);
          throw error;
        }
        return (await find(id)) as StoredFleet;
      });
    },
    async listFleets() {
      await settled();
      return shared.listFleets();
    },
    async findFleet(id) {
      await settled();
      return find(id);
    },
    async fleetVehicles(id) {
      await settled();
      return writes.readInPages(id);
    },
    // Staged, then applied a chunk at a time (fleet-writes.ts): a reader meanwhile may see part
    // of the new list, and the new version only once all of it is in; a process stopped part way
    // through leaves an update the store finishes when it next opens.
    async replaceFleetVehicles(id, version, contents, actor, caps) {
      return writes.oneAtATime(async () => {
        await finishLeftOver();
        const fleet = await find(id);
        if (!fleet) return undefined;
        if (fleet.version !== version)
          throw new FleetVersionError(version, fleet.version);
        writes.checkVehicleRoom(caps, id, contents.vehicles.length);
        const kept = new Set(contents.vehicles.map((v) => v.registration));
        const gone = (await writes.heldRegistrations(id)).filter(
          (registration) => !kept.has(registration),
        );
        let began: boolean;
        try {
          began = await writes.updateInChunks(
            id,
            version,
            contents,
            gone,
            actor,
          );
        } catch (error) {
          // Staged whole but not applied: finished before the next read or save.
          leftOver = writes.hasPendingUpdates();
          throw error;
        }
        // Deleted meanwhile: as if it had been deleted first.
        const now = await find(id);
        if (!began && now) throw new FleetVersionError(version, now.version);
        return now;
      });
    },
    renameFleet: shared.renameFleet,
    async deleteFleet(id) {
      return inTransaction(db, () => {
        clear.run(id);
        // Its pending deliveries go with it, at once: they must not queue before others'.
        dropDeliveries.run(FLEET_DELETED, id);
        return Number(remove.run(id).changes) > 0;
      });
    },
    async watchedRegistrations() {
      await settled();
      return shared.watchedRegistrations();
    },
  };
}
