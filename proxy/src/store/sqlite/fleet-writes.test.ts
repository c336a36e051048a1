// The SQLite store writes a large fleet a chunk at a time, letting the event loop turn between
// chunks, and a reader never sees a new fleet before all of it is in.
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
