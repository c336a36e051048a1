// The run's summary: the list in rows, and the answers in vehicles (a vehicle listed twice is
// one vehicle to act on), with compliance's verdicts and failing checks when it was checked.
import type { ComplianceChecks } from "@vics/shared";
import type { ResultRow } from "./results-view.ts";
import type { RowOutcome } from "@vics/fleet";

export type VehicleOutcome = Exclude<RowOutcome, "excluded">;

export interface RunSummary {
  rows: number;
  uniqueVehicles: number;
  duplicateRows: number;
  invalidRows: number;
  excludedRows: number;
  /** Unique vehicles by outcome ("invalid": the service refused a registration the app accepted). */
  vehicles: Record<VehicleOutcome, number>;
  compliance?: {
    compliant: number;
    notCompliant: number;
    /** Unique vehicles whose compliance got no answer (retryable). */
    notChecked: number;
    failing: Record<keyof ComplianceChecks, number>;
    /** Unique vehicles whose MOT or road tax falls due within 30 days. */
    dueSoon: { mot: number; tax: number };
  };
}

export function summariseRun(
  entries: readonly ResultRow[],
  checkCompliance: boolean,
): RunSummary {
  const summary: RunSummary = {
    rows: entries.length,
    uniqueVehicles: 0,
    duplicateRows: 0,
    invalidRows: 0,
    excludedRows: 0,
    vehicles: {
      "not-insured": 0,
      expiring: 0,
      "not-yet-on-record": 0,
      "not-found": 0,
      "not-checked": 0,
      invalid: 0,
      pending: 0,
      insured: 0,
    },
    compliance: checkCompliance
      ? {
          compliant: 0,
          notCompliant: 0,
          notChecked: 0,
          failing: {
            insuranceValid: 0,
            motValid: 0,
            roadTaxPaid: 0,
            noOutstandingFines: 0,
          },
          dueSoon: { mot: 0, tax: 0 },
        }
      : undefined,
  };
  const seen = new Set<string>();
  for (const entry of entries) {
    const { registration, excluded } = entry.row;
    if (excluded) {
      summary.excludedRows++;
      continue;
    }
    if (!registration) {
      summary.invalidRows++;
      continue;
    }
    if (seen.has(registration)) {
      summary.duplicateRows++;
      continue;
    }
    seen.add(registration);
    summary.uniqueVehicles++;
    summary.vehicles[entry.outcome as VehicleOutcome]++;
    const compliance = summary.compliance;
    if (compliance && entry.complianceNotChecked) compliance.notChecked++;
    if (compliance && entry.compliant !== undefined) {
      if (entry.compliant) compliance.compliant++;
      else compliance.notCompliant++;
      for (const check of entry.failing) compliance.failing[check]++;
    }
    for (const due of entry.dueSoon)
      if (compliance && due.kind !== "insurance")
        compliance.dueSoon[due.kind]++;
  }
  return summary;
}
