// Which column holds the registrations: by its header first, then by its values.
import { parseRegistration, type RegistrationFormat } from "@vics/shared";
import type { SourceRow, SourceTable } from "../fleet-types.ts";

// Compared with case, spaces and punctuation removed ("Reg. No." is "regno"), most telling
// first: a "Vehicle" column may hold "Ford Focus", so any registration-named column wins.
const HEADER_NAMES = [
  "registration",
  "registrationnumber",
  "registrationno",
  "registrationmark",
  "registrationplate",
  "vehicleregistration",
  "vehicleregistrationnumber",
  "vehicleregistrationmark",
  "vehiclereg",
  "vehicleregno",
  "vehicleregnumber",
  "reg",
  "regno",
  "regnumber",
  "regnum",
  "regmark",
  "regplate",
  "vrm",
  "vrn",
  "numberplate",
  "plate",
  "platenumber",
  "licenceplate",
  "licenseplate",
  "vehicle",
];

/** Values read per column to judge it: enough to tell, cheap on 100,000 rows. */
const SAMPLE_SIZE = 200;

function compact(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** Where the name ranks among registration header names (0 is best), or -1. */
export function registrationHeaderRank(cell: string): number {
  return HEADER_NAMES.indexOf(compact(cell));
}

// Fleet numbers ("F1", "V123") are valid dateless plates too, so a value in a dated format
// counts for more: of two columns, the one of "AB12 CDE"s is the registrations.
const FORMAT_WEIGHT: Record<RegistrationFormat, number> = {
  current: 1,
  prefix: 1,
  suffix: 1,
  dateless: 0.5,
};

interface ColumnJudgement {
  /** The share (0 to 1) of the first non-blank values that are valid registrations. */
  valid: number;
  /** The same, each weighted by how telling its format is. */
  score: number;
}

function judgeColumn(rows: SourceRow[], column: number): ColumnJudgement {
  let seen = 0;
  let valid = 0;
  let score = 0;
  for (const row of rows) {
    const cell = row.cells[column]?.trim() ?? "";
    if (cell === "") continue;
    seen++;
    const parsed = parseRegistration(cell);
    if (parsed.ok) {
      valid++;
      score += FORMAT_WEIGHT[parsed.format];
    }
    if (seen === SAMPLE_SIZE) break;
  }
  return seen === 0
    ? { valid: 0, score: 0 }
    : { valid: valid / seen, score: score / seen };
}

/** The share (0 to 1) of a column's first non-blank values that are valid registrations. */
function registrationShare(rows: SourceRow[], column: number): number {
  return judgeColumn(rows, column).valid;
}

/** Of the columns where at least half the values are registrations, the most telling one. */
export function registrationColumnByValues(
  rows: SourceRow[],
  columnCount: number,
): number | null {
  let best: number | null = null;
  let bestScore = -1;
  for (let column = 0; column < columnCount; column++) {
    const { valid, score } = judgeColumn(rows, column);
    if (valid >= 0.5 && score > bestScore) {
      best = column;
      bestScore = score;
    }
  }
  return best;
}

export function guessRegistrationColumn(table: SourceTable): number | null {
  if (table.columnCount === 1) return 0;
  const named = (table.header ?? [])
    .map((cell, column) => ({ column, rank: registrationHeaderRank(cell) }))
    .filter((entry) => entry.rank >= 0)
    .sort((a, b) => a.rank - b.rank || a.column - b.column);
  // Of several named columns, the one that holds registrations ("Vehicle" may be a model).
  const confirmed = named.find(
    ({ column }) => registrationShare(table.rows, column) >= 0.5,
  );
  if (confirmed) return confirmed.column;
  if (named[0]) return named[0].column;
  return registrationColumnByValues(table.rows, table.columnCount);
}
