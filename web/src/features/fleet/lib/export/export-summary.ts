// The run at a glance, for a manager's file: which list, when it was run, the rows, the
// vehicles by outcome (those needing action first), compliance, and what falls due within 30
// days. The Excel file's Summary sheet and the printable report both show these lines.
import type { ComplianceChecks } from "@vics/shared";
import { formatDateTime } from "../../../../lib/dates.ts";
import { dueSoon, type DueKind } from "@vics/fleet";
import type { FleetRow, VehicleResult } from "../fleet-types.ts";
import { buildResultRows } from "../results-view.ts";
import { summariseRun, type VehicleOutcome } from "../run-summary.ts";
import type { ExportRunInfo } from "./export-protocol.ts";

export type SummaryGroup =
  "About" | "Your list" | "Vehicles" | "Compliance" | "Due within 30 days";

export interface SummaryLine {
  group: SummaryGroup;
  label: string;
  value: string | number;
}

const OUTCOME_LINES: [VehicleOutcome, string][] = [
  ["not-insured", "Not insured"],
  ["expiring", "Insured, cover ends within 30 days"],
  ["not-yet-on-record", "New, policy not yet on record"],
  ["not-found", "Not found"],
  ["not-checked", "Not checked"],
  ["invalid", "Refused by the service as invalid"],
  ["pending", "Not checked yet"],
  ["insured", "Insured"],
];

/** Shown only when there are any: the rest are always shown, even at 0. */
const ONLY_IF_ANY = new Set<VehicleOutcome>([
  "not-yet-on-record",
  "invalid",
  "pending",
]);

const FAILING: [keyof ComplianceChecks, string][] = [
  ["insuranceValid", "Failing insurance"],
  ["motValid", "Failing MOT"],
  ["roadTaxPaid", "Failing road tax"],
  ["noOutstandingFines", "With unpaid fines"],
];

const DUE_LABELS: [DueKind, string][] = [
  ["insurance", "Insurance due within 30 days"],
  ["mot", "MOT due within 30 days"],
  ["tax", "Road tax due within 30 days"],
];

/** Unique vehicles with anything due within 30 days, and how many of each kind. */
function dueCounts(
  rows: readonly FleetRow[],
  results: ReadonlyMap<string, VehicleResult>,
  today: string,
) {
  const counts = { any: 0, insurance: 0, mot: 0, tax: 0 };
  const seen = new Set<string>();
  for (const row of rows) {
    const registration = row.registration;
    if (!registration || row.excluded || seen.has(registration)) continue;
    seen.add(registration);
    const soon = dueSoon(results.get(registration), today);
    if (soon.length > 0) counts.any++;
    for (const due of soon) counts[due.kind]++;
  }
  return counts;
}

export function exportSummary(
  rows: readonly FleetRow[],
  results: ReadonlyMap<string, VehicleResult>,
  run: ExportRunInfo,
  today: string,
): SummaryLine[] {
  const summary = summariseRun(
    buildResultRows(rows, results, today),
    run.checkCompliance,
  );
  const line = (
    group: SummaryGroup,
    label: string,
    value: string | number,
  ): SummaryLine => ({
    group,
    label,
    value,
  });
  const lines: SummaryLine[] = [
    line("About", "List", run.name),
    line("About", "Run on", formatDateTime(run.createdAt)),
    line("Your list", "Rows in the list", run.listRows),
    line("Your list", "Rows with an invalid registration", summary.invalidRows),
    line("Your list", "Rows excluded", summary.excludedRows),
    line("Your list", "Rows repeating a vehicle", summary.duplicateRows),
    line("Vehicles", "Vehicles checked", summary.uniqueVehicles),
  ];
  // A file of the rows the table showed says how many of the list it holds.
  if (summary.rows !== run.listRows)
    lines.splice(3, 0, line("Your list", "Rows in this file", summary.rows));
  for (const [outcome, label] of OUTCOME_LINES) {
    const value = summary.vehicles[outcome];
    if (value > 0 || !ONLY_IF_ANY.has(outcome))
      lines.push(line("Vehicles", label, value));
  }
  const compliance = summary.compliance;
  if (compliance) {
    lines.push(
      line("Compliance", "Compliant", compliance.compliant),
      line("Compliance", "Not compliant", compliance.notCompliant),
      line("Compliance", "Compliance not checked", compliance.notChecked),
      ...FAILING.map(([check, label]) =>
        line("Compliance", label, compliance.failing[check]),
      ),
    );
  }
  const due = dueCounts(rows, results, today);
  lines.push(
    line(
      "Due within 30 days",
      "Vehicles with something due within 30 days",
      due.any,
    ),
  );
  for (const [kind, label] of DUE_LABELS)
    lines.push(line("Due within 30 days", label, due[kind]));
  return lines;
}
