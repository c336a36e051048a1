// The export's columns: Row, then the user's own columns in their order and names (their
// registration column, as their list had it, in its place among them), then ours. Also how an
// XLSX export types each column.
import type { FleetRow } from "../fleet-types.ts";
import { PASTE_SOURCE } from "../parse/parse-paste.ts";
import { COMPLIANCE_COLUMNS } from "./compliance-cells.ts";
import { DUE_SOON_COLUMN, dueSoonColumn } from "./due-cells.ts";
import {
  MOT_AS_OF_COLUMN,
  SOURCE_COLUMNS,
  TAX_AS_OF_COLUMN,
} from "./source-cells.ts";

/** What the export needs of a run: a SavedRun has it all. */
export interface ExportRun {
  /** The run's name: "Pasted list" for a paste, whose one column is the registrations. */
  name?: string;
  /** The registration column's name, or null when the list had no header. */
  registrationColumn?: string | null;
  /** Its position among the list's columns (0-based); runs saved before it: 0, the first. */
  registrationColumnIndex?: number;
  extraColumns: string[];
  checkCompliance: boolean;
}

/**
 * How an XLSX export writes a column's cells: ours as numbers, sums of money ("£120.00"),
 * dates or date-times, the outcome coloured; the user's by what each cell holds (a plain number, an ISO
 * date, or text); the rest as text.
 */
export type ExportColumnKind =
  "number" | "money" | "date" | "datetime" | "text" | "user" | "outcome";

const ROW_COLUMN = "Row";
/** Headed so when the list had no header: a paste, or a file of data from row 1. */
const PASTED_COLUMN = "Registration as pasted";
const SUBMITTED_COLUMN = "Registration as submitted";

const COVER_COLUMNS = [
  "Registration",
  "Outcome",
  "Insurer",
  "Policy number",
  "Cover type",
  "Valid from",
  "Valid to",
];
/** Known only from a compliance check: beside the cover's end, so the three dates read together. */
const COMPLIANCE_DUE_COLUMNS = ["MOT due", "Tax due"];
const VEHICLE_COLUMNS = ["Make", "Model", "Year", "Colour", "Notes"];
const RESULT_COLUMNS = [
  ...COVER_COLUMNS,
  ...COMPLIANCE_DUE_COLUMNS,
  DUE_SOON_COLUMN,
  ...VEHICLE_COLUMNS,
];
const OUR_KINDS: ReadonlyMap<string, ExportColumnKind> = new Map([
  [ROW_COLUMN, "number"],
  ["Outcome", "outcome"],
  ["Valid from", "date"],
  ["Valid to", "date"],
  ["MOT due", "date"],
  ["Tax due", "date"],
  ["Year", "number"],
  // "2026-11-29 10:02", UK time: written as an Excel date and time.
  [TAX_AS_OF_COLUMN, "datetime"],
  [MOT_AS_OF_COLUMN, "datetime"],
]);

const OUR_COLUMNS = new Set(
  [ROW_COLUMN, ...RESULT_COLUMNS, ...COMPLIANCE_COLUMNS, ...SOURCE_COLUMNS].map(
    (name) => name.toLowerCase(),
  ),
);

/**
 * A user's column name, except that one which is also ours ("Registration", "Make") gets
 * " (your list)": two columns of one name confuse people and break spreadsheet tools. So no
 * user column is ever named exactly as one of ours, and a name alone says whose it is.
 */
export function userColumnName(name: string): string {
  return OUR_COLUMNS.has(name.trim().toLowerCase())
    ? `${name} (your list)`
    : name;
}

/** Where the registration column goes among the other columns. */
function registrationAt(run: ExportRun): number {
  const index = run.registrationColumnIndex ?? 0;
  return Number.isInteger(index)
    ? Math.min(Math.max(index, 0), run.extraColumns.length)
    : 0;
}

function registrationColumnName(run: ExportRun): string {
  if (run.registrationColumn) return run.registrationColumn;
  return run.name === PASTE_SOURCE && run.extraColumns.length === 0
    ? PASTED_COLUMN
    : SUBMITTED_COLUMN;
}

/** The row's own cells in its list's order, its registration as the list had it. */
export function userCells(row: FleetRow, run: ExportRun): string[] {
  const cells = run.extraColumns.map((_, index) => row.extra[index] ?? "");
  cells.splice(registrationAt(run), 0, row.submitted);
  return cells;
}

export function exportHeader(run: ExportRun, today: string): string[] {
  const user = [...run.extraColumns];
  user.splice(registrationAt(run), 0, registrationColumnName(run));
  return [
    ROW_COLUMN,
    ...user.map(userColumnName),
    ...COVER_COLUMNS,
    ...(run.checkCompliance ? COMPLIANCE_DUE_COLUMNS : []),
    dueSoonColumn(today),
    ...VEHICLE_COLUMNS,
    ...(run.checkCompliance ? [...COMPLIANCE_COLUMNS, ...SOURCE_COLUMNS] : []),
  ];
}

/** A column's kind from its name alone: exact for a header from exportHeader. */
export function exportColumnKind(name: string): ExportColumnKind {
  if (name.startsWith(`${DUE_SOON_COLUMN} of `)) return "text";
  if (OUR_COLUMNS.has(name.toLowerCase())) return OUR_KINDS.get(name) ?? "text";
  return "user";
}
