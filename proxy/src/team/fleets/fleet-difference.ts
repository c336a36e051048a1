// What a new list would do to a saved fleet: the vehicles it adds, those it removes (their
// alerts stop), those whose own cells change, and how many stay as they are.
import type { FleetDifference, FleetList } from "@vics/shared";
import type { StoredFleet, StoredFleetVehicle } from "../store/fleet-store.ts";

const sameCells = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((cell, i) => cell === b[i]);

export function fleetDifference(
  fleet: StoredFleet,
  current: readonly StoredFleetVehicle[],
  next: FleetList,
): FleetDifference {
  const before = new Map(current.map((v) => [v.registration, v.cells]));
  const after = new Set(next.vehicles.map((v) => v.registration));
  const added: string[] = [];
  const changed: string[] = [];
  let unchanged = 0;
  for (const vehicle of next.vehicles) {
    const cells = before.get(vehicle.registration);
    if (cells === undefined) added.push(vehicle.registration);
    else if (sameCells(cells, vehicle.cells)) unchanged += 1;
    else changed.push(vehicle.registration);
  }
  return {
    version: fleet.version,
    added,
    removed: current
      .map((v) => v.registration)
      .filter((registration) => !after.has(registration)),
    changed,
    unchanged,
    columnsChanged: !sameCells(fleet.columns, next.columns),
  };
}
