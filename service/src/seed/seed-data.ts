import type { IsoDate } from "@vics/shared";
import { SANDBOX_REGISTRATIONS } from "@vics/shared";
import { syntheticFleet } from "./fleet.ts";
import { referenceVehicles } from "./reference.ts";
import type { VehicleFacts } from "../domain/vehicle-facts.ts";

export interface SeedOptions {
  fleetSize: number;
  seed: number;
  /** The seeding day (UTC). */
  today: IsoDate;
  /** The seeding's instant, kept as when the data begins; default: the start of `today`. */
  seededAt?: string;
}

/** The reference vehicles, then the synthetic fleet, which never reuses their plates. */
export function* seedVehicles(options: SeedOptions): Generator<VehicleFacts> {
  const references = referenceVehicles(options.today);
  yield* references;
  yield* syntheticFleet({
    size: options.fleetSize,
    seed: options.seed,
    today: options.today,
    // Derived from the vehicles themselves, so a reference vehicle added there can never
    // collide with a synthetic plate.
    reserved: new Set<string>([
      ...references.map((reference) => reference.registration),
      ...Object.keys(SANDBOX_REGISTRATIONS),
    ]),
  });
}
