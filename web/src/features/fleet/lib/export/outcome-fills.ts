// The Outcome cell's colours in the Excel file, by what the outcome asks of a fleet manager:
// Excel's own "Bad", "Neutral" and "Good" cell styles, so they read as a spreadsheet user
// expects; grey where VICS has no answer. The outcome's words stay in the cell: colour is
// never the only signal (and is lost on a black-and-white printer).
import { OUTCOME_LABELS, type RowOutcome } from "@vics/fleet";

interface Fill {
  backgroundColor: string;
  textColor: string;
}

const BAD: Fill = { backgroundColor: "#FFC7CE", textColor: "#9C0006" };
const NEUTRAL: Fill = { backgroundColor: "#FFEB9C", textColor: "#9C5700" };
const GOOD: Fill = { backgroundColor: "#C6EFCE", textColor: "#006100" };
const NO_ANSWER: Fill = { backgroundColor: "#EDEDED", textColor: "#000000" };

const FILLS: Partial<Record<RowOutcome, Fill>> = {
  "not-insured": BAD,
  expiring: NEUTRAL,
  "not-yet-on-record": NEUTRAL,
  "not-found": NO_ANSWER,
  "not-checked": NO_ANSWER,
  invalid: NO_ANSWER,
  insured: GOOD,
};

const BY_LABEL = new Map(
  Object.entries(FILLS).map(([outcome, fill]) => [
    OUTCOME_LABELS[outcome as RowOutcome],
    fill,
  ]),
);

/** The fill for an Outcome cell's words; none for "Excluded" and "Not checked yet". */
export function outcomeFill(label: string): Fill | undefined {
  return BY_LABEL.get(label);
}
