// The export as a table of text, one row per row of the user's list (excluded and invalid
// ones included), in the columns of export-columns.ts. CSV and XLSX are written from it. A file
// is read on later days than it was made, so it holds dates (YYYY-MM-DD) and never an age
// ("20 days ago", days to expiry): those are the page's, counted from the day it is read.
import { formatRegistration, type Policy, type Vehicle } from "@vics/shared";
import type { FleetRow, VehicleResult } from "../fleet-types.ts";
import { notYetOnRecord, OUTCOME_LABELS, rowOutcome } from "@vics/fleet";
import { lapseFileWords, newVehicleWords } from "../result-words.ts";
import { complianceCells } from "./compliance-cells.ts";
import { shownPolicy } from "./shown-policy.ts";
import { sourceCells } from "./source-cells.ts";
import { dueCells } from "./due-cells.ts";
import { type ExportRun, userCells } from "./export-columns.ts";

export {
  exportColumnKind,
  exportHeader,
  type ExportColumnKind,
  type ExportRun,
} from "./export-columns.ts";

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

/** Insurer to Colour: what the check learned about the vehicle, its cover and what falls due. */
function resultCells(
  result: VehicleResult | undefined,
  today: string,
  checkCompliance: boolean,
): string[] {
  // The cover in force, or the last that ended (the Notes say when it ended).
  const policy: Policy | undefined = shownPolicy(result?.insurance);
  const vehicle = result && vehicleOf(result);
  return [
    policy?.insurer ?? "",
    policy?.number ?? "",
    policy?.type ?? "",
    policy?.validFrom ?? "",
    policy?.validTo ?? "",
    ...dueCells(result, today, checkCompliance),
    vehicle?.make ?? "",
    vehicle?.model ?? "",
    vehicle ? String(vehicle.year) : "",
    vehicle?.color ?? "",
  ];
}

/** Why the row has no answer, in the words the results table uses. */
function problem(
  row: FleetRow,
  result: VehicleResult | undefined,
  today: string,
): string {
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
    case "not-insured":
      return notYetOnRecord(insurance, today)
        ? newVehicleWords(insurance, (date) => date)
        : lapseFileWords(insurance);
  }
  return compliance?.status === "not-checked"
    ? `Compliance not checked: ${compliance.reason}`
    : "";
}

/** What the user changed before sending: the list's own text stays in their column. */
function correction(row: FleetRow): string {
  if (row.edited === undefined) return "";
  if (row.registration) return `Corrected from ${row.submitted || "(blank)"}`;
  return `Changed to ${row.edited || "nothing"}`;
}

/** The correction, then why the row has no answer: "Corrected from LPO8SED. Vehicle not found". */
function notesCell(
  row: FleetRow,
  result: VehicleResult | undefined,
  today: string,
): string {
  return [correction(row), problem(row, result, today)]
    .filter((note) => note !== "")
    .join(". ");
}

/** `today` is the UK's date ("YYYY-MM-DD"), for the outcome and what falls due within 30 days. */
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
      ...userCells(row, run),
      row.registration ? formatRegistration(row.registration) : "",
      OUTCOME_LABELS[outcome],
      ...resultCells(result, today, run.checkCompliance),
      notesCell(row, result, today),
    ];
    return run.checkCompliance
      ? [
          ...cells,
          ...complianceCells(result?.compliance),
          ...sourceCells(result?.compliance),
        ]
      : cells;
  });
}
