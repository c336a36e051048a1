// What a session of a saved run still has to answer: every unique registration of the rows the
// user kept, less those with a final saved result; or, to retry the rows not checked, exactly
// the registrations given (their new results replace the old).
import type { FleetRow, SavedRun, VehicleResult } from "../fleet-types.ts";
import { isNotChecked } from "@vics/fleet";

export interface RunPlan {
  /** To send, in the order of the user's list. */
  registrations: string[];
  /** What the session's progress counts from: all it covers, and what is already answered. */
  total: number;
  done: number;
  notChecked: number;
}

/** The valid, kept registrations of the rows, each once, in the order of the list. */
export function uniqueRegistrations(rows: readonly FleetRow[]): string[] {
  const unique = new Set<string>();
  for (const row of rows) {
    if (row.registration && !row.excluded) unique.add(row.registration);
  }
  return [...unique];
}

/** A saved result is final when it has every part the run asks for. */
export function isFinalResult(
  result: VehicleResult | undefined,
  checkCompliance: boolean,
): result is VehicleResult {
  return (
    result !== undefined &&
    (!checkCompliance || result.compliance !== undefined)
  );
}

export function planRun(
  run: SavedRun,
  results: ReadonlyMap<string, VehicleResult>,
  retry?: readonly string[],
): RunPlan {
  if (retry) {
    const registrations = [...new Set(retry)];
    return {
      registrations,
      total: registrations.length,
      done: 0,
      notChecked: 0,
    };
  }
  const all = uniqueRegistrations(run.rows);
  const registrations: string[] = [];
  let notChecked = 0;
  for (const registration of all) {
    const result = results.get(registration);
    if (!isFinalResult(result, run.checkCompliance))
      registrations.push(registration);
    else if (isNotChecked(result)) notChecked += 1;
  }
  return {
    registrations,
    total: all.length,
    done: all.length - registrations.length,
    notChecked,
  };
}
