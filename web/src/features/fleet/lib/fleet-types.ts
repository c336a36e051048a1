// The fleet check's shapes, shared by its parts: the input parser (lib/parse), the run engine
// (@vics/fleet), the saved runs (lib/store), the export (lib/export) and the page (components).
import type { FleetRow } from "@vics/fleet";

export type {
  ComplianceOutcome,
  FleetRow,
  InsuranceOutcome,
  RunPhase,
  RunProgress,
  VehicleResult,
} from "@vics/fleet";

/** The most rows a list may have, pasted or uploaded. */
export const FLEET_MAX_ROWS = 100_000;

/** A table read from a paste or a file, before the registration column is chosen. */
export interface SourceTable {
  /** Where it came from, to name the run: the file's name, or "Pasted list". */
  source: string;
  /** The first row's cells when it is a header; null when the first row is data. */
  header: string[] | null;
  /** The data rows, blank ones left out. */
  rows: SourceRow[];
  /** The widest row's number of cells. */
  columnCount: number;
  /**
   * Title rows found above the header ("ACME Haulage fleet list, November"), left out of the
   * data: to tell the user what was skipped. Absent when there were none.
   */
  skipped?: SkippedRow[];
  /**
   * Totals and notes found under the list ("Total;48", "Notes: ..."), left out of the data:
   * to tell the user what was skipped. Absent when there were none.
   */
  skippedBelow?: SkippedRow[];
  /**
   * In a paste: each line that was more than one registration alone (a bullet, a note, two
   * plates, no plate at all), with what was taken from it. Absent when there were none.
   */
  pasted?: PastedLine[];
  /** In a workbook with more than one sheet in use: the sheet read, by name. */
  sheet?: string;
  /** Every sheet in use of such a workbook, in order, so the user can choose another. */
  sheets?: SheetSummary[];
}

/** A pasted line (its start, when long) and the rows taken from it: none when it held none. */
export interface PastedLine {
  line: number;
  text: string;
  taken: string[];
}

/** One sheet of a workbook, as offered to the user: its name, its rows, its registrations. */
export interface SheetSummary {
  name: string;
  /** Its data rows (below any header). */
  rows: number;
  /** Valid registrations in its registration column: 0 says this is not a list of vehicles. */
  registrations: number;
}

/** A row above the header or under the list that is not data: its line in the file and its text. */
export interface SkippedRow {
  line: number;
  text: string;
}

export interface SourceRow {
  /**
   * The row's number as the user sees it: its line in their file or in their paste (1-based;
   * a header is line 1). Registrations pasted on one line share its number.
   */
  line: number;
  cells: string[];
}

/** Why a file could not be read, in words the user can act on. */
export type ParseErrorCode =
  | "not-a-spreadsheet"
  | "empty"
  | "no-rows"
  | "too-many-rows"
  | "protected"
  | "corrupt";

export interface ParseFailure {
  code: ParseErrorCode;
  message: string;
}

export type RunStatus = "running" | "paused" | "finished" | "cancelled";

/** A run as it is saved in the browser (IndexedDB), so a reload can resume it. */
export interface SavedRun {
  id: string;
  /**
   * The signed-in user who made it (their id): staff share computers, and each sees only their
   * own runs. Runs saved before sign-in existed have none, and nobody sees them.
   */
  ownerId?: string;
  /** The file's name or "Pasted list". */
  name: string;
  createdAt: string;
  updatedAt: string;
  status: RunStatus;
  checkCompliance: boolean;
  /** The name of the registration column, when the list had a header. */
  registrationColumn: string | null;
  /** Names of the other columns, in order ("Column 2" where the list had no header). */
  extraColumns: string[];
  /**
   * Where the registration column was among the list's columns (0-based), so an export gives
   * the user's columns back in their order. Runs saved before it: taken as 0, the first.
   */
  registrationColumnIndex?: number;
  rows: FleetRow[];
}

/** The list being prepared, as kept across a reload: the table read, the chosen column, the rows. */
export interface StoredDraft {
  table: SourceTable;
  column: number;
  rows: FleetRow[];
  extraColumns: string[];
  registrationColumn: string | null;
}
