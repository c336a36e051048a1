import type { Policy, Vehicle } from "@vics/shared";
import type { IsoDate } from "@vics/shared";
import type { Fine, MotTest, TaxRecord } from "./compliance.ts";

/**
 * Everything the checks need to know about one vehicle. The store answers it and the seed
 * generates it, so it lives here, below both: the seed writes what the store reads without
 * importing the store.
 */
export interface VehicleFacts {
  registration: string;
  vehicle: Vehicle;
  firstRegistered: IsoDate;
  /** UTC timestamp of the record's last change. */
  lastUpdated: string;
  policies: Policy[];
  /** In test-date order. */
  motTests: MotTest[];
  tax: TaxRecord;
  /** In issue-date order. */
  fines: Fine[];
}
