// The export's source columns (issue 35): where each vehicle's road tax and MOT facts came
// from and when. A live register's name (DVLA, DVSA), or "VICS records" with the
// answer's dataAsOf; the time as a UK date and time, never an age, since a file is read on
// later days (decision 055). Blank when the answer said neither (an older service).
import {
  factOrigin,
  STALE_SHORT_WORDS,
  type FactOrigin,
} from "../../../../lib/fact-origin.ts";
import { formatFileDateTime } from "../../../../lib/dates.ts";
import type { ComplianceOutcome } from "../fleet-types.ts";

// The zone is in the name: a file is read without the app, and in autumn one UK hour repeats.
export const TAX_AS_OF_COLUMN = "Road tax as of (UK time)";
export const MOT_AS_OF_COLUMN = "MOT as of (UK time)";

export const SOURCE_COLUMNS = [
  "Road tax source",
  TAX_AS_OF_COLUMN,
  "MOT source",
  MOT_AS_OF_COLUMN,
];

function cells(origin: FactOrigin | undefined): string[] {
  if (!origin) return ["", ""];
  const source = origin.stale
    ? `${origin.label} (${STALE_SHORT_WORDS})`
    : origin.label;
  return [source, formatFileDateTime(origin.asOf)];
}

/** Road tax source, Road tax as of, MOT source, MOT as of; blank unless compliance was answered. */
export function sourceCells(
  compliance: ComplianceOutcome | undefined,
): string[] {
  if (compliance?.status !== "checked") return SOURCE_COLUMNS.map(() => "");
  const { factSources, recordsAsOf } = compliance;
  return [
    ...cells(factOrigin("tax", factSources, recordsAsOf?.tax)),
    ...cells(factOrigin("mot", factSources, recordsAsOf?.mot)),
  ];
}
