import { afterEach, describe, expect, it } from "vitest";
import { seedVehicles, type SeedOptions } from "../seed/seed-data.ts";
import { DuplicateKeyNameError, insurancePart, type Store } from "./store.ts";
import type { VehicleFacts } from "../domain/vehicle-facts.ts";

/** The fleet the contract seeds: small enough to seed per test, varied enough to matter. */
export const CONTRACT_FLEET: SeedOptions = {
  fleetSize: 500,
  seed: 20260101,
  today: "2026-03-10",
};

/** Opens a migrated store; seeded with `fleet` when given, else empty. */
export type OpenStore = (fleet?: SeedOptions) => Promise<Store>;

const byDate = <T>(items: readonly T[], date: (item: T) => string): T[] =>
  items.toSorted((a, b) =>
    date(a) < date(b) ? -1 : date(a) > date(b) ? 1 : 0,
  );

/**
 * What every store answers for a seeded vehicle, from the generator itself: its history in
 * date order, ties in the order the seed lists them. Held to it, the engines answer alike.
 */
export function expectedFacts(seed: VehicleFacts): VehicleFacts {
  return {
    registration: seed.registration,
    vehicle: seed.vehicle,
    firstRegistered: seed.firstRegistered,
    lastUpdated: seed.lastUpdated,
    policies: byDate(seed.policies, (policy) => policy.validFrom),
    motTests: byDate(seed.motTests, (mot) => mot.testedOn),
    tax: seed.tax,
    fines: byDate(seed.fines, (fine) => fine.issuedOn),
  };
}

const key = (name: string, keyHash = `hash-${name}`, minute = 0) => ({
  name,
  plan: "trial" as const,
  keyHash,
  createdAt: new Date(Date.UTC(2026, 2, 10, 10, minute)).toISOString(),
});

/**
 * What every service store must do, whatever its engine: run by each engine's test with a
 * function that opens a fresh, migrated store.
 */
export function storeContract(open: OpenStore) {
  const opened: Store[] = [];
  const openStore = async (fleet?: SeedOptions) => {
    const store = await open(fleet);
    opened.push(store);
    return store;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
  });

  describe("vehicles", () => {
    it("answers every seeded vehicle as the fleet has it: facts, dates and the history's order", async () => {
      const store = await openStore(CONTRACT_FLEET);
      const fleet = [...seedVehicles(CONTRACT_FLEET)];
      const found = await store.findVehicles(
        fleet.map((vehicle) => vehicle.registration),
      );
      expect(found.size).toBe(fleet.length);
      for (const vehicle of fleet)
        expect(found.get(vehicle.registration), vehicle.registration).toEqual(
          expectedFacts(vehicle),
        );
    });

    it("finds one vehicle as findVehicles does, and nothing for an unknown one", async () => {
      const store = await openStore(CONTRACT_FLEET);
      const facts = await store.findVehicle("FN19OUT");
      expect(facts?.vehicle).toEqual({
        make: "Skoda",
        model: "Octavia",
        year: 2019,
        color: "Green",
      });
      expect(facts?.tax).toEqual({ sorn: false, dueDate: expect.any(String) });
      // Issued 400, 90 and 40 days before the seeding day: oldest first.
      expect(facts?.fines).toEqual([
        { issuedOn: "2025-02-03", amountPence: 6_000, paid: true },
        { issuedOn: "2025-12-10", amountPence: 10_000, paid: false },
        { issuedOn: "2026-01-29", amountPence: 5_000, paid: false },
      ]);
      const lapsed = await store.findVehicle("LP08SED");
      expect(lapsed?.policies.map((policy) => policy.number)).toEqual([
        "REF-LP08SED-1",
        "REF-LP08SED-2",
      ]);
      for (const registration of ["FN19OUT", "LP08SED", "SR19ORN"])
        expect(await store.findVehicle(registration)).toEqual(
          (await store.findVehicles([registration])).get(registration),
        );
      expect(await store.findVehicle("ZZ99ZZZ")).toBeUndefined();
    });

    it("finds a vehicle's insurance facts as findVehicle has them, and nothing for an unknown one", async () => {
      const store = await openStore(CONTRACT_FLEET);
      const fleet = [...seedVehicles(CONTRACT_FLEET)].slice(0, 50);
      for (const { registration } of [...fleet, { registration: "LP08SED" }]) {
        const facts = await store.findVehicle(registration);
        expect(facts, registration).toBeDefined();
        expect(await store.findInsurance(registration), registration).toEqual(
          insurancePart(facts!),
        );
      }
      expect(await store.findInsurance("ZZ99ZZZ")).toBeUndefined();
      expect(
        await store.findInsurance("LP08SED", "2000-01-01T00:00:00.000Z"),
      ).toBeUndefined();
    });

    it("finds many vehicles' insurance facts as findVehicles has them, leaving out unknown ones", async () => {
      const store = await openStore(CONTRACT_FLEET);
      const wanted = [
        ...[...seedVehicles(CONTRACT_FLEET)]
          .slice(0, 50)
          .map((vehicle) => vehicle.registration),
        "LP08SED",
        "ZZ99ZZZ",
        "LP08SED",
      ];
      const vehicles = await store.findVehicles(wanted);
      const insurances = await store.findInsurances(wanted);
      expect(vehicles.size).toBeGreaterThan(40);
      expect(insurances.has("ZZ99ZZZ")).toBe(false);
      expect([...insurances.keys()].sort()).toEqual(
        [...vehicles.keys()].sort(),
      );
      for (const [registration, facts] of vehicles)
        expect(insurances.get(registration), registration).toEqual(
          insurancePart(facts),
        );
      expect((await store.findInsurances([])).size).toBe(0);
      expect(
        (await store.findInsurances(wanted, "2000-01-01T00:00:00.000Z")).size,
      ).toBe(0);
    });

    it("finds many at once, leaving out unknown ones and answering a duplicate once", async () => {
      const store = await openStore(CONTRACT_FLEET);
      const found = await store.findVehicles([
        "AB12CDE",
        "ZZ99ZZZ",
        "SR19ORN",
        "AB12CDE",
      ]);
      expect([...found.keys()].sort()).toEqual(["AB12CDE", "SR19ORN"]);
      expect(found.get("SR19ORN")?.tax).toEqual({ sorn: true, dueDate: null });
      expect((await store.findVehicles([])).size).toBe(0);
    });

    it("answers a thousand registrations in one call", async () => {
      const store = await openStore(CONTRACT_FLEET);
      const known = [...seedVehicles(CONTRACT_FLEET)].map(
        (vehicle) => vehicle.registration,
      );
      const unknown = Array.from(
        { length: 1000 - known.length },
        (_, index) => `ZZ${String(index % 100).padStart(2, "0")}ZZZ`,
      );
      const found = await store.findVehicles([...unknown, ...known]);
      expect(found.size).toBe(known.length);
    });

    it("records whether it holds the synthetic fleet", async () => {
      expect(
        await (await openStore(CONTRACT_FLEET)).holdsSyntheticFleet(),
      ).toBe(true);
      const empty = await openStore();
      expect(await empty.holdsSyntheticFleet()).toBe(false);
      expect(await empty.findVehicle("AB12CDE")).toBeUndefined();
    });
  });

  describe("keys", () => {
    it("creates, finds by hash, lists in creation order and revokes", async () => {
      const store = await openStore();
      const created = await store.createKey(key("ops", "hash-ops", 1));
      expect(created).toEqual({
        id: expect.any(Number),
        name: "ops",
        plan: "trial",
        createdAt: "2026-03-10T10:01:00.000Z",
        revokedAt: null,
      });
      expect(await store.findKeyByHash("hash-ops")).toEqual(created);
      expect(await store.findKeyByHash("nope")).toBeUndefined();
      const earlier = await store.createKey(key("web", "hash-web", 0));
      const sameTime = await store.createKey(key("cli", "hash-cli", 1));
      expect(sameTime.id).toBeGreaterThan(created.id);
      expect((await store.listKeys()).map((k) => k.name)).toEqual([
        earlier.name,
        "ops",
        "cli",
      ]);
    });

    it("revokes once: revoking again keeps the first time, and an unknown name is undefined", async () => {
      const store = await openStore();
      await store.createKey(key("ops"));
      const revoked = await store.revokeKey("ops", "2026-03-11T00:00:00.000Z");
      expect(revoked?.revokedAt).toBe("2026-03-11T00:00:00.000Z");
      const again = await store.revokeKey("ops", "2026-03-12T00:00:00.000Z");
      expect(again?.revokedAt).toBe("2026-03-11T00:00:00.000Z");
      expect(await store.findKeyByHash("hash-ops")).toEqual(again);
      expect(
        await store.revokeKey("missing", "2026-03-12T00:00:00.000Z"),
      ).toBeUndefined();
    });

    it("refuses a duplicate name with a typed error, and keeps the first key", async () => {
      const store = await openStore();
      const first = await store.createKey(key("ops"));
      await expect(
        store.createKey(key("ops", "other-hash")),
      ).rejects.toBeInstanceOf(DuplicateKeyNameError);
      expect(await store.findKeyByHash("other-hash")).toBeUndefined();
      expect(await store.listKeys()).toEqual([first]);
    });
  });

  describe("the store itself", () => {
    it("answers a ping, and closes twice without complaint", async () => {
      const store = await openStore();
      await expect(store.ping()).resolves.toBeUndefined();
      await store.close();
      await store.close();
    });
  });
}
