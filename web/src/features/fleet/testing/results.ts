// A finished run saved with its answers, for the results' tests: the page opens straight onto
// the results, as a fleet manager comes back to a run.
import { addDays, type ComplianceDetails } from "@vics/shared";
import { daysBetween, ukToday } from "../../../lib/dates.ts";
import { answered, insured, validRow } from "./fleet-fixtures.ts";
import type { SavedRun, VehicleResult } from "../lib/fleet-types.ts";
import { fleetStore } from "./fleet-page.tsx";

/** The UK date `days` from today, "YYYY-MM-DD". */
export function inDays(days: number): string {
  const today = ukToday();
  const iso = addDays(today, days);
  // Guard the helper itself: a wrong date would make every due-date test meaningless.
  if (daysBetween(today, iso) !== days) throw new Error("inDays is wrong");
  return iso;
}

/** Insured and compliant, with the MOT and road tax falling due in the given days. */
export function dueIn(
  registration: string,
  days: { cover?: number; mot: number; tax: number },
): VehicleResult {
  const details: ComplianceDetails = {
    mot: { status: "valid", expiry: inDays(days.mot) },
    tax: { status: "taxed", dueDate: inDays(days.tax) },
    fines: { count: 0, totalPence: 0 },
  };
  return answered(
    registration,
    insured(registration, inDays(days.cover ?? 200)).insurance,
    {
      status: "checked",
      compliant: true,
      checks: {
        insuranceValid: true,
        motValid: true,
        roadTaxPaid: true,
        noOutstandingFines: true,
      },
      details,
    },
  );
}

export async function finishedRun(
  results: readonly VehicleResult[],
  checkCompliance = true,
): Promise<SavedRun> {
  const now = new Date().toISOString();
  const run: SavedRun = {
    id: "run-results",
    name: "Pasted list",
    createdAt: now,
    updatedAt: now,
    status: "finished",
    checkCompliance,
    registrationColumn: null,
    extraColumns: [],
    rows: results.map((result, index) =>
      validRow(index + 1, result.registration),
    ),
  };
  const store = await fleetStore();
  await store.saveRun(run);
  await store.saveResults(run.id, [...results]);
  return run;
}
