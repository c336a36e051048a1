import type { IsoDate } from "../domain/dates.ts";
import type { VehicleFacts } from "../store/store.ts";

export interface SeedMotTest {
  testedOn: IsoDate;
  expiresOn: IsoDate;
}

export interface SeedFine {
  issuedOn: IsoDate;
  amountPence: number;
  paid: boolean;
}

/** A vehicle as the seed writes it: the facts plus the history behind them. */
export interface SeedVehicle extends Omit<
  VehicleFacts,
  "motExpiries" | "fines"
> {
  motTests: SeedMotTest[];
  fines: SeedFine[];
}
