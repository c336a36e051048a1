import { expect, it } from "vitest";
import { measureStoreSizes } from "./store-sizes.ts";

it("measures sizes of events and vehicles that were all stored", async () => {
  const figures = await measureStoreSizes(80, 30, 2);
  // Sizes per row of rows that were never written would measure nothing: every event and
  // vehicle is in the database, and each figure is a cost.
  // 80 checks of one plate each, 2 bulk events of 1,000 distinct plates.
  expect(figures.stored).toEqual({ events: 82, plates: 2_080, vehicles: 30 });
  expect(figures.bulkWalBytesPerPlate).toBeGreaterThan(0);
  expect(figures.auditWalBytesPerEvent).toBeGreaterThan(0);
  expect(figures.auditNodeCpuUsPerEvent).toBeGreaterThan(0);
  expect(figures.fleetWalBytesPerVehicle).toBeGreaterThan(0);
  expect(figures.auditBytesPerEvent).toBeGreaterThan(0);
}, 60_000);
