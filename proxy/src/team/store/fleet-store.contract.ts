import { describe, expect, it } from "vitest";
import type { FleetVehicle } from "@vics/shared";
import {
  DuplicateFleetNameError,
  FleetCapError,
  FleetVersionError,
  type FleetStore,
} from "./fleet-store.ts";

const T0 = Date.parse("2026-11-24T10:00:00Z");
const ann = { email: "ann@example.org", at: T0 };
const bob = { email: "bob@example.org", at: T0 + 60_000 };

const vehicle = (registration: string, ...cells: string[]): FleetVehicle => ({
  registration,
  cells,
});

/** What every engine's store must do with saved fleets; `store` is the test's open store. */
export function fleetStoreContract(store: () => FleetStore) {
  describe("saved fleets", () => {
    it("saves a fleet with its columns and vehicles in order, and lists it by name", async () => {
      const fleet = await store().createFleet(
        "North depot",
        {
          columns: ["Fleet no", "Driver"],
          vehicles: [
            vehicle("SW71UWJ", "17", "Sam"),
            vehicle("AB12CDE", "4", ""),
          ],
        },
        ann,
      );
      expect(fleet).toMatchObject({
        name: "North depot",
        columns: ["Fleet no", "Driver"],
        version: 1,
        vehicleCount: 2,
        createdAt: T0,
        createdBy: "ann@example.org",
        updatedBy: "ann@example.org",
      });
      await store().createFleet(
        "Apprentices",
        { columns: [], vehicles: [vehicle("AB12CDE")] },
        bob,
      );
      expect((await store().listFleets()).map((f) => f.name)).toEqual([
        "Apprentices",
        "North depot",
      ]);
      expect(await store().fleetVehicles(fleet.id)).toEqual([
        { registration: "SW71UWJ", cells: ["17", "Sam"], addedAt: T0 },
        { registration: "AB12CDE", cells: ["4", ""], addedAt: T0 },
      ]);
      // A vehicle in two fleets is watched once.
      expect(await store().watchedRegistrations()).toEqual([
        "AB12CDE",
        "SW71UWJ",
      ]);
    });

    it("lists fleets by name in any case, a capital letter sorting with its small one", async () => {
      for (const name of ["bravo", "Charlie", "alpha"])
        await store().createFleet(name, { columns: [], vehicles: [] }, ann);
      expect((await store().listFleets()).map((f) => f.name)).toEqual([
        "alpha",
        "bravo",
        "Charlie",
      ]);
    });

    it("refuses a second fleet of the same name in any case, and a rename onto one", async () => {
      await store().createFleet(
        "Vans",
        { columns: [], vehicles: [vehicle("AB12CDE")] },
        ann,
      );
      const cars = await store().createFleet(
        "Cars",
        { columns: [], vehicles: [vehicle("SW71UWJ")] },
        ann,
      );
      await expect(
        store().createFleet(
          "VANS",
          { columns: [], vehicles: [vehicle("AB12CDE")] },
          ann,
        ),
      ).rejects.toBeInstanceOf(DuplicateFleetNameError);
      await expect(
        store().renameFleet(cars.id, "vans", bob),
      ).rejects.toBeInstanceOf(DuplicateFleetNameError);
      expect(
        await store().renameFleet(cars.id, "Pool cars", bob),
      ).toMatchObject({
        name: "Pool cars",
        version: 1,
        updatedAt: bob.at,
        updatedBy: "bob@example.org",
      });
      expect(await store().listFleets()).toHaveLength(2);
      expect(
        await store().renameFleet("no-such-fleet", "X", bob),
      ).toBeUndefined();
    });

    it("replaces the vehicles at the version shown, keeping when each kept vehicle joined", async () => {
      const fleet = await store().createFleet(
        "Vans",
        {
          columns: ["Driver"],
          vehicles: [vehicle("AB12CDE", "Ann"), vehicle("SW71UWJ", "Sam")],
        },
        ann,
      );
      const updated = await store().replaceFleetVehicles(
        fleet.id,
        1,
        {
          columns: ["Driver", "Depot"],
          vehicles: [
            vehicle("LP08SED", "Lee", "Leeds"),
            vehicle("AB12CDE", "Ann", "York"),
          ],
        },
        bob,
      );
      expect(updated).toMatchObject({
        version: 2,
        vehicleCount: 2,
        columns: ["Driver", "Depot"],
        createdBy: "ann@example.org",
        updatedBy: "bob@example.org",
        updatedAt: bob.at,
      });
      expect(await store().fleetVehicles(fleet.id)).toEqual([
        { registration: "LP08SED", cells: ["Lee", "Leeds"], addedAt: bob.at },
        { registration: "AB12CDE", cells: ["Ann", "York"], addedAt: T0 },
      ]);
      // The sold vehicle is no longer watched, at once.
      expect(await store().watchedRegistrations()).toEqual([
        "AB12CDE",
        "LP08SED",
      ]);

      // A list prepared against version 1 no longer applies: nothing changes.
      await expect(
        store().replaceFleetVehicles(
          fleet.id,
          1,
          { columns: [], vehicles: [vehicle("SW71UWJ")] },
          ann,
        ),
      ).rejects.toMatchObject(new FleetVersionError(1, 2));
      expect(await store().fleetVehicles(fleet.id)).toHaveLength(2);
      expect(
        await store().replaceFleetVehicles(
          "no-such-fleet",
          1,
          { columns: [], vehicles: [] },
          ann,
        ),
      ).toBeUndefined();
    });

    it("refuses a fleet beyond the team's cap on fleets, and a list that would take its fleets past their cap on vehicles", async () => {
      // A vehicle counts once per fleet that holds it: the cap bounds the rows kept.
      const caps = { maxFleets: 2, maxWatchedVehicles: 4 };
      const list = (...registrations: string[]) => ({
        columns: [],
        vehicles: registrations.map((r) => vehicle(r)),
      });
      const vans = await store().createFleet(
        "Vans",
        list("AB12CDE", "SW71UWJ"),
        ann,
        caps,
      );
      const cars = await store().createFleet(
        "Cars",
        list("AB12CDE"),
        ann,
        caps,
      );
      await expect(
        store().createFleet("Lorries", list("LP08SED"), ann, caps),
      ).rejects.toMatchObject(new FleetCapError("fleets", 2));
      expect((await store().listFleets()).map((f) => f.name)).toEqual([
        "Cars",
        "Vans",
      ]);

      await store().replaceFleetVehicles(
        cars.id,
        1,
        list("AB12CDE", "LP08SED"),
        bob,
        caps,
      );
      await expect(
        store().replaceFleetVehicles(
          cars.id,
          2,
          list("AB12CDE", "LP08SED", "YY19ABC"),
          bob,
          caps,
        ),
      ).rejects.toMatchObject(new FleetCapError("watched-vehicles", 4));
      // Nothing of the refused list was kept.
      expect(await store().findFleet(cars.id)).toMatchObject({
        version: 2,
        vehicleCount: 2,
      });
      expect(await store().fleetVehicles(cars.id)).toMatchObject([
        { registration: "AB12CDE" },
        { registration: "LP08SED" },
      ]);

      // Room made by deleting a fleet is room again.
      expect(await store().deleteFleet(vans.id)).toBe(true);
      await expect(
        store().createFleet(
          "Lorries",
          list("SW71UWJ", "YY19ABC", "KM20XYZ"),
          ann,
          caps,
        ),
      ).rejects.toMatchObject(new FleetCapError("watched-vehicles", 4));
      expect(await store().listFleets()).toHaveLength(1);
      await store().createFleet(
        "Lorries",
        list("SW71UWJ", "YY19ABC"),
        ann,
        caps,
      );
      expect(await store().watchedRegistrations()).toEqual([
        "AB12CDE",
        "LP08SED",
        "SW71UWJ",
        "YY19ABC",
      ]);
    });

    it("lets only as many fleets in as its cap when they are saved at once", async () => {
      const caps = { maxFleets: 2, maxWatchedVehicles: 1_000 };
      const saves = await Promise.allSettled(
        ["A", "B", "C", "D", "E"].map((name, i) =>
          store().createFleet(
            name,
            { columns: [], vehicles: [vehicle(`AB${10 + i}CDE`)] },
            ann,
            caps,
          ),
        ),
      );
      expect(saves.filter((s) => s.status === "fulfilled")).toHaveLength(2);
      for (const save of saves.filter((s) => s.status === "rejected"))
        expect(save.reason).toBeInstanceOf(FleetCapError);
      expect(await store().listFleets()).toHaveLength(2);
    });

    // 100,000 rows in and out: seconds on a loaded machine, so not vitest's default 5 s.
    it(
      "keeps 100,000 vehicles, and deletes a fleet with all of them",
      { timeout: 60_000 },
      async () => {
        const many = Array.from({ length: 100_000 }, (_, i) =>
          vehicle(`AB${String(i).padStart(5, "0")}`, String(i)),
        );
        const fleet = await store().createFleet(
          "Everything",
          { columns: ["No"], vehicles: many },
          ann,
        );
        expect(fleet.vehicleCount).toBe(100_000);
        const saved = await store().fleetVehicles(fleet.id);
        expect(saved[99_999]).toEqual({
          registration: "AB99999",
          cells: ["99999"],
          addedAt: T0,
        });
        expect(await store().deleteFleet(fleet.id)).toBe(true);
        expect(await store().deleteFleet(fleet.id)).toBe(false);
        expect(await store().findFleet(fleet.id)).toBeUndefined();
        expect(await store().fleetVehicles(fleet.id)).toEqual([]);
        expect(await store().watchedRegistrations()).toEqual([]);
      },
    );
  });
}
