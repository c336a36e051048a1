import type { IsoDate } from "../domain/dates.ts";
import { SANDBOX_REGISTRATIONS } from "../sandbox.ts";
import { syntheticFleet } from "./fleet.ts";
import { REFERENCE_REGISTRATIONS, referenceVehicles } from "./reference.ts";
import type { SeedVehicle } from "./seed-vehicle.ts";

export interface SeedOptions {
  fleetSize: number;
  seed: number;
  /** The seeding day (UTC). */
  today: IsoDate;
}

/** The reference vehicles, then the synthetic fleet, which never reuses their plates. */
export function* seedVehicles(options: SeedOptions): Generator<SeedVehicle> {
  yield* referenceVehicles(options.today);
  yield* syntheticFleet({
    size: options.fleetSize,
    seed: options.seed,
    today: options.today,
    reserved: new Set<string>([
      ...REFERENCE_REGISTRATIONS,
      ...Object.keys(SANDBOX_REGISTRATIONS),
    ]),
  });
}
