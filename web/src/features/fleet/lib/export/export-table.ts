// The export as a table of text, one row per row of the user's list (excluded and invalid
// ones included), in the columns the issue sets out. CSV and XLSX are written from it.
import { formatRegistration, type Vehicle } from "@vics/shared";
import { daysBetween } from "../../../../lib/dates.ts";
import type { FleetRow, VehicleResult } from "../fleet-types.ts";
import { OUTCOME_LABELS, rowOutcome } from "../row-outcome.ts";
import { COMPLIANCE_COLUMNS, complianceCells } from "./compliance-cells.ts";

export interface ExportRun {
  extraColumns: string[];
  checkCompliance: boolean;
}

const ROW_COLUMN = "Row";
const RESULT_COLUMNS = [
  "Registration as submitted",
  "Registration",
  "Outcome",
  "Insurer",
  "Policy number",
  "Cover type",
  "Valid from",
  "Valid to",
  "Days to expiry",
  "Make",
  "Model",
  "Year",
  "Colour",
  "Error",
];
const OUR_COLUMNS = new Set(
  [ROW_COLUMN, ...RESULT_COLUMNS, ...COMPLIANCE_COLUMNS].map((name) =>
    name.toLowerCase(),
  ),
);

/**
 * The user's column names, except that one which is also ours ("Make", "Year") gets
 * " (your list)": two columns of one name confuse people and break spreadsheet tools.
 */
function userColumns(extraColumns: string[]): string[] {
  return extraColumns.map((name) =>
    OUR_COLUMNS.has(name.trim().toLowerCase()) ? `${name} (your list)` : name,
  );
}

export function exportHeader(run: ExportRun): string[] {
  return [
    ROW_COLUMN,
    ...userColumns(run.extraColumns),
    ...RESULT_COLUMNS,
    ...(run.checkCompliance ? COMPLIANCE_COLUMNS : []),
  ];
}

/** The columns of whole numbers, which an XLSX export writes as numbers; ours alone have these names. */
export const NUMERIC_EXPORT_COLUMNS = ["Row", "Days to expiry", "Year"];

/** Where the whole numbers are: the positions of NUMERIC_EXPORT_COLUMNS in the header. */
export function numericExportColumns(run: ExportRun): number[] {
  const header = exportHeader(run);
  return NUMERIC_EXPORT_COLUMNS.map((name) => header.indexOf(name));
}

function vehicleOf(result: VehicleResult): Vehicle | undefined {
  const { insurance, compliance } = result;
  const insured =
    insurance.status === "insured" || insurance.status === "not-insured"
      ? insurance.vehicle
      : undefined;
  return (
    insured ??
    (compliance?.status === "checked" ? compliance.vehicle : undefined)
  );
}

/** Insurer to Colour: what the check learned about the vehicle and its cover. */
function resultCells(
  result: VehicleResult | undefined,
  today: string,
): string[] {
  const insurance = result?.insurance;
  const policy = insurance?.status === "insured" ? insurance.policy : undefined;
  const vehicle = result && vehicleOf(result);
  return [
    policy?.insurer ?? "",
    policy?.number ?? "",
    policy?.type ?? "",
    policy?.validFrom ?? "",
    policy?.validTo ?? "",
    policy ? String(daysBetween(today, policy.validTo)) : "",
    vehicle?.make ?? "",
    vehicle?.model ?? "",
    vehicle ? String(vehicle.year) : "",
    vehicle?.color ?? "",
  ];
}

/** Why the row has no answer, in the words the results table uses. */
function errorCell(row: FleetRow, result: VehicleResult | undefined): string {
  if (row.invalid) return row.invalid.reason;
  if (!result) return "";
  const { insurance, compliance } = result;
  switch (insurance.status) {
    case "not-found":
      return "Vehicle not found";
    case "invalid":
      return "Invalid registration format";
    case "not-checked":
      return insurance.reason;
  }
  return compliance?.status === "not-checked"
    ? `Compliance not checked: ${compliance.reason}`
    : "";
}

/** `today` is the UK's date ("YYYY-MM-DD"), for the outcome and the days to expiry. */
export function exportRows(
  rows: readonly FleetRow[],
  results: ReadonlyMap<string, VehicleResult>,
  run: ExportRun,
  today: string,
): string[][] {
  return rows.map((row) => {
    const found = row.registration ? results.get(row.registration) : undefined;
    const outcome = rowOutcome(row, found, today);
    // An excluded row was not sent: another row's answer for the same vehicle is not its own.
    const result = outcome === "excluded" ? undefined : found;
    const cells = [
      String(row.line),
      ...run.extraColumns.map((_, index) => row.extra[index] ?? ""),
      row.submitted,
      row.registration ? formatRegistration(row.registration) : "",
      OUTCOME_LABELS[outcome],
      ...resultCells(result, today),
      errorCell(row, result),
    ];
    return run.checkCompliance
      ? [...cells, ...complianceCells(result?.compliance)]
      : cells;
  });
}
