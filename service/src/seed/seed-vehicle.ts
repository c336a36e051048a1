import type { Fine, MotTest } from "../domain/compliance.ts";
import type { VehicleFacts } from "../store/store.ts";

export type SeedMotTest = MotTest;
export type SeedFine = Fine;

/**
 * A vehicle as the seed writes it: the facts a lookup answers, its MOT tests and fines in
 * the order the generator made them (a store answers them in date order).
 */
export type SeedVehicle = VehicleFacts;
