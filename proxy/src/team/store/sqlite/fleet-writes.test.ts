// The SQLite store writes a large fleet a chunk at a time, letting the event loop turn between
// chunks, and a reader never sees a new fleet before all of it is in.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { setImmediate as nextTurn } from "node:timers/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ProxyStore } from "../proxy-store.ts";
import { openSqliteProxyStore } from "./sqlite-proxy-store.ts";

let store: ProxyStore;
beforeEach(() => {
  store = openSqliteProxyStore({ path: ":memory:", auditRetentionDays: 30 });
});
afterEach(() => store.close());

const ann = {
  email: "ann@example.org",
  at: Date.parse("2026-11-28T10:00:00Z"),
};
const list = (count: number, from = 0) => ({
  columns: ["No"],
  vehicles: Array.from({ length: count }, (_, i) => ({
    registration: `R${from + i}`,
    cells: [String(from + i)],
  })),
});

/** Runs `work`, counting the turns of the event loop and what `look` saw at each. */
async function turnsDuring<T>(work: Promise<T>, look: () => Promise<number>) {
  let done = false;
  const seen: number[] = [];
  const watching = (async () => {
    while (!done) {
      await nextTurn();
      seen.push(await look());
    }
  })();
  const result = await work;
  done = true;
  await watching;
  return { result, seen };
}

describe("the SQLite store's large fleets", () => {
  it("saves 20,000 vehicles in many turns of the event loop, the fleet unseen until all are in", async () => {
    const { result, seen } = await turnsDuring(
      store.createFleet("Everything", list(20_000), ann),
      async () => (await store.listFleets()).length,
    );
    expect(result.vehicleCount).toBe(20_000);
    // A chunk is 500 vehicles: 40 chunks, a turn after each.
    expect(seen.length).toBeGreaterThanOrEqual(20);
    expect(seen.slice(0, -1).every((fleets) => fleets === 0)).toBe(true);
    expect(await store.findFleet(result.id)).toMatchObject({
      vehicleCount: 20_000,
      version: 1,
    });
  });

  it("applies a new list of 20,000 vehicles in many turns, the new version shown once all of it is in", async () => {
    const fleet = await store.createFleet("Everything", list(20_000), ann);
    const { result, seen } = await turnsDuring(
      store.replaceFleetVehicles(fleet.id, 1, list(20_000, 10_000), {
        ...ann,
        at: ann.at + 1,
      }),
      async () => (await store.findFleet(fleet.id))!.version,
    );
    expect(seen.length).toBeGreaterThanOrEqual(20);
    expect(seen.slice(0, -1).every((version) => version === 1)).toBe(true);
    expect(result).toMatchObject({ version: 2, vehicleCount: 20_000 });
    const vehicles = await store.fleetVehicles(fleet.id);
    expect(vehicles[0]).toEqual({
      registration: "R10000",
      cells: ["10000"],
      addedAt: ann.at,
    });
    expect(vehicles[19_999]).toEqual({
      registration: "R29999",
      cells: ["29999"],
      addedAt: ann.at + 1,
    });
  });

  it("reads 20,000 vehicles back in their order, in many turns of the event loop", async () => {
    const fleet = await store.createFleet("Everything", list(20_000), ann);
    const { result, seen } = await turnsDuring(
      store.fleetVehicles(fleet.id),
      async () => 0,
    );
    expect(result.map((v) => v.registration)).toEqual(
      list(20_000).vehicles.map((v) => v.registration),
    );
    expect(seen.length).toBeGreaterThanOrEqual(5);
  });

  it("answers an update of a fleet deleted while its list goes in as for a deleted fleet", async () => {
    const fleet = await store.createFleet("Everything", list(5_000), ann);
    const update = store.replaceFleetVehicles(
      fleet.id,
      1,
      list(5_000, 10_000),
      ann,
    );
    await nextTurn();
    await nextTurn();
    expect(await store.deleteFleet(fleet.id)).toBe(true);
    await expect(update).resolves.toBeUndefined();
    expect(await store.watchedRegistrations()).toEqual([]);
  });

  it("holds a new fleet's name while its vehicles are written: a second save of that name is refused and keeps nothing", async () => {
    const saves = await Promise.allSettled([
      store.createFleet("Cars", list(2_000), ann),
      store.createFleet("cars", list(2_000, 5_000), ann),
    ]);
    expect(saves.map((save) => save.status)).toEqual(["fulfilled", "rejected"]);
    expect(await store.watchedRegistrations()).toHaveLength(2_000);
  });
});

describe("a fleet's update of 20,000 vehicles whose process stops part way through", () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), "vics-fleet-update-"));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));
  const path = () => join(folder, "proxy.db");

  /**
   * Saves list(20,000), starts its update to list(20,000, 10,000) (half the vehicles go, half
   * come) and stops it for good after `chunks` of the update's chunks are committed, as a
   * crash would (the hook never returns); the store is closed. Answers the fleet's id.
   */
  async function stopUpdateAfter(chunks: number): Promise<string> {
    let armed = false;
    let committed = 0;
    let stopped!: () => void;
    const reached = new Promise<void>((resolve) => (stopped = resolve));
    const first = openSqliteProxyStore({
      path: path(),
      auditRetentionDays: 30,
      afterFleetChunk: () => {
        if (!armed || ++committed < chunks) return;
        stopped();
        return new Promise<void>(() => {});
      },
    });
    const fleet = await first.createFleet("Everything", list(20_000), ann);
    armed = true;
    void first.replaceFleetVehicles(fleet.id, 1, list(20_000, 10_000), {
      ...ann,
      at: ann.at + 1,
    });
    await reached;
    await first.close();
    return fleet.id;
  }

  /** The fleet's version and registrations on disk, read past the store. */
  function onDisk(fleetId: string) {
    const db = new DatabaseSync(path());
    try {
      const { version } = db
        .prepare("SELECT version FROM fleets WHERE id = ?")
        .get(fleetId) as { version: number };
      const held = db
        .prepare("SELECT registration FROM fleet_vehicles WHERE fleet_id = ?")
        .all(fleetId) as { registration: string }[];
      return { version, held: new Set(held.map((row) => row.registration)) };
    } finally {
      db.close();
    }
  }

  const registrations = (count: number, from = 0) =>
    list(count, from).vehicles.map((v) => v.registration);

  it("is finished when the store opens again: the new list whole, at the new version", async () => {
    // Well into the update: some vehicles gone and some new ones in, under the old version.
    const id = await stopUpdateAfter(30);
    const left = onDisk(id);
    expect(left.version).toBe(1);
    expect(left.held.has("R0")).toBe(false);
    expect(left.held.size).toBeLessThan(20_000);

    const reopened = openSqliteProxyStore({
      path: path(),
      auditRetentionDays: 30,
    });
    try {
      expect(await reopened.findFleet(id)).toMatchObject({
        version: 2,
        vehicleCount: 20_000,
      });
      const vehicles = await reopened.fleetVehicles(id);
      expect(vehicles.map((v) => v.registration)).toEqual(
        registrations(20_000, 10_000),
      );
      expect(vehicles[0]).toEqual({
        registration: "R10000",
        cells: ["10000"],
        addedAt: ann.at,
      });
      expect(vehicles[19_999]).toEqual({
        registration: "R29999",
        cells: ["29999"],
        addedAt: ann.at + 1,
      });
      expect(await reopened.watchedRegistrations()).toHaveLength(20_000);
      // And the fleet takes its next update as usual.
      expect(
        await reopened.replaceFleetVehicles(id, 2, list(3), {
          ...ann,
          at: ann.at + 2,
        }),
      ).toMatchObject({ version: 3, vehicleCount: 3 });
    } finally {
      await reopened.close();
    }
    expect(onDisk(id)).toEqual({
      version: 3,
      held: new Set(registrations(3)),
    });
  });

  it(
    "stopped at any point, leaves the old list at the old version or the new list at the new, never a mixture",
    // Five updates of 20,000 vehicles, stopped and finished: over vitest's 5 s when other suites
    // share the machine's two cores (a time limit, not a claim about speed).
    { timeout: 60_000 },
    async () => {
      // 60 chunks are staged 10 a transaction (6), the update marked ready (7), then applied.
      const stops = [
        { chunks: 1, version: 1 },
        { chunks: 6, version: 1 },
        { chunks: 7, version: 2 },
        { chunks: 8, version: 2 },
        { chunks: 60, version: 2 },
      ];
      for (const { chunks, version } of stops) {
        const id = await stopUpdateAfter(chunks);
        const reopened = openSqliteProxyStore({
          path: path(),
          auditRetentionDays: 30,
        });
        try {
          expect(await reopened.findFleet(id), `after ${chunks}`).toMatchObject(
            {
              version,
              vehicleCount: 20_000,
            },
          );
          expect(
            (await reopened.fleetVehicles(id)).map((v) => v.registration),
          ).toEqual(
            version === 1
              ? registrations(20_000)
              : registrations(20_000, 10_000),
          );
          await reopened.deleteFleet(id);
        } finally {
          await reopened.close();
        }
      }
      // Nothing of the updates is left staged.
      const db = new DatabaseSync(path());
      expect(
        db
          .prepare(
            "SELECT (SELECT count(*) FROM fleet_updates) + (SELECT count(*) FROM fleet_update_chunks) AS n",
          )
          .get(),
      ).toEqual({ n: 0 });
      db.close();
    },
  );
});

describe("a new fleet of 5,000 vehicles whose save stops part way through", () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), "vics-fleet-draft-"));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));
  const path = () => join(folder, "proxy.db");
  const caps = { maxFleets: 1, maxWatchedVehicles: 5_000 };

  /**
   * Starts saving "Cars" (list(5,000), 10 chunks) and holds it after 3 committed chunks;
   * `go` lets it go on. The draft is then on disk, as a crash there would leave it.
   */
  async function holdCreate() {
    let go!: () => void;
    const held = new Promise<void>((resolve) => (go = resolve));
    let committed = 0;
    let reached!: () => void;
    const atHold = new Promise<void>((resolve) => (reached = resolve));
    const store = openSqliteProxyStore({
      path: path(),
      auditRetentionDays: 30,
      afterFleetChunk: () => {
        if (++committed !== 3) return;
        reached();
        return held;
      },
    });
    const save = store.createFleet("Cars", list(5_000), ann, caps);
    save.catch(() => undefined);
    await atHold;
    return { store, save, go };
  }

  it("is not watched, listed or counted while its vehicles go in", async () => {
    const { store: first, save, go } = await holdCreate();
    try {
      expect(await first.watchedRegistrations()).toEqual([]);
      expect(await first.listFleets()).toEqual([]);
      // Nor are its vehicles' alerts planned for it (R0 is in its first chunk).
      expect(await first.alertFleets(["R0"])).toEqual([]);
      go();
      await expect(save).resolves.toMatchObject({ vehicleCount: 5_000 });
      expect(await first.watchedRegistrations()).toHaveLength(5_000);
    } finally {
      await first.close();
    }
  });

  it("is gone when the store opens again: its name is free, it counts toward no cap and is not watched", async () => {
    const { store: first } = await holdCreate();
    await first.close();

    const reopened = openSqliteProxyStore({
      path: path(),
      auditRetentionDays: 30,
    });
    try {
      expect(await reopened.watchedRegistrations()).toEqual([]);
      expect(
        await reopened.createFleet("Cars", list(5_000, 10_000), ann, caps),
      ).toMatchObject({ name: "Cars", vehicleCount: 5_000 });
      expect(await reopened.watchedRegistrations()).toEqual(
        list(5_000, 10_000)
          .vehicles.map((v) => v.registration)
          .sort(),
      );
    } finally {
      await reopened.close();
    }
    const db = new DatabaseSync(path());
    expect(
      db.prepare("SELECT count(*) AS n FROM fleets WHERE version = 0").get(),
    ).toEqual({ n: 0 });
    db.close();
  });

  it("taken away by another process opening the file, fails as one to save again and keeps nothing", async () => {
    const { store: first, save, go } = await holdCreate();
    const second = openSqliteProxyStore({
      path: path(),
      auditRetentionDays: 30,
    });
    try {
      expect(await second.listFleets()).toEqual([]);
      go();
      await expect(save).rejects.toThrow(/save it again/);
      expect(await first.watchedRegistrations()).toEqual([]);
      expect(await first.createFleet("Cars", list(3), ann, caps)).toMatchObject(
        { vehicleCount: 3 },
      );
    } finally {
      await second.close();
      await first.close();
    }
  });
});
