// One entry of the results as the page shows them: a row of the user's list with its outcome.
// Its own module because results-view.ts builds these rows and results-sort.ts orders them, and
// the view uses the sort: here, neither imports the other to know the shape.
import type { ComplianceChecks } from "@vics/shared";
import type { DueDates, DueSoon, RowOutcome } from "@vics/fleet";
import type { FleetRow, VehicleResult } from "./fleet-types.ts";

export interface ResultRow {
  row: FleetRow;
  /** The row's place in the user's list (0-based): unique, where a line number may not be. */
  position: number;
  result?: VehicleResult;
  outcome: RowOutcome;
  /** Undefined when compliance was not checked, or not answered for this vehicle. */
  compliant?: boolean;
  /** The compliance checks that failed, when compliance was answered. */
  failing: (keyof ComplianceChecks)[];
  /** The run asked about compliance and got no answer for this vehicle (it can be retried). */
  complianceNotChecked: boolean;
  /** When cover, MOT and road tax next fall due, as far as the answer tells. */
  due: DueDates;
  /** What of those falls due within 30 days, soonest first. */
  dueSoon: DueSoon[];
}
