// The results as the page shows them: one entry per row of the user's list with its outcome,
// the order that puts vehicles needing action first, and the filters, search and sorting of
// the results table. Pure, so 100,000 rows are tested without a browser.
import type { ComplianceChecks } from "@vics/shared";
import type { FleetRow, VehicleResult } from "./fleet-types.ts";
import { OUTCOME_ORDER, rowOutcome, type RowOutcome } from "./row-outcome.ts";

export interface ResultRow {
  row: FleetRow;
  /** The row's place in the user's list (0-based): unique, where a line number may not be. */
  position: number;
  result?: VehicleResult;
  outcome: RowOutcome;
  /** Undefined when compliance was not checked, or not answered for this vehicle. */
  compliant?: boolean;
  /** The compliance checks that failed, when compliance was answered. */
  failing: (keyof ComplianceChecks)[];
  /** The run asked about compliance and got no answer for this vehicle (it can be retried). */
  complianceNotChecked: boolean;
}

const CHECK_NAMES: (keyof ComplianceChecks)[] = [
  "insuranceValid",
  "motValid",
  "roadTaxPaid",
  "noOutstandingFines",
];

export function buildResultRows(
  rows: readonly FleetRow[],
  results: ReadonlyMap<string, VehicleResult>,
  today: string,
): ResultRow[] {
  return rows.map((row, position) => {
    const result =
      row.registration && !row.excluded
        ? results.get(row.registration)
        : undefined;
    const compliance = result?.compliance;
    const checked = compliance?.status === "checked" ? compliance : undefined;
    return {
      row,
      position,
      result,
      outcome: rowOutcome(row, result, today),
      compliant: checked?.compliant,
      failing: checked
        ? CHECK_NAMES.filter((name) => !checked.checks[name])
        : [],
      complianceNotChecked: compliance?.status === "not-checked",
    };
  });
}

const OUTCOME_RANK = new Map(
  OUTCOME_ORDER.map((outcome, rank) => [outcome, rank]),
);

/**
 * Lower comes first: an uninsured vehicle, then one whose cover is about to end, then an
 * insured one that fails compliance, then the rows VICS could not answer; excluded last.
 */
export function actionRank(entry: ResultRow): number {
  const rank = OUTCOME_RANK.get(entry.outcome) ?? OUTCOME_ORDER.length;
  // An insured vehicle that is not compliant needs action too: just after "expiring"; one whose
  // compliance could not be checked goes with the rows not checked.
  if (entry.outcome === "insured" && entry.compliant === false) return 1.5;
  if (entry.outcome === "insured" && entry.complianceNotChecked)
    return OUTCOME_RANK.get("not-checked") ?? rank;
  return rank;
}

export type OutcomeFilter =
  | "all"
  | "needs-action"
  | RowOutcome
  | "not-compliant"
  | `failing-${keyof ComplianceChecks}`;

export function needsAction(entry: ResultRow): boolean {
  return (
    entry.compliant === false ||
    entry.complianceNotChecked ||
    ["not-insured", "expiring", "not-found", "not-checked", "invalid"].includes(
      entry.outcome,
    )
  );
}

export function matchesFilter(
  entry: ResultRow,
  filter: OutcomeFilter,
): boolean {
  if (filter === "all") return true;
  if (filter === "needs-action") return needsAction(entry);
  if (filter === "not-compliant") return entry.compliant === false;
  // "Not checked": whatever part of the vehicle's check got no answer.
  if (filter === "not-checked")
    return entry.outcome === "not-checked" || entry.complianceNotChecked;
  if (filter.startsWith("failing-"))
    return entry.failing.includes(
      filter.slice("failing-".length) as keyof ComplianceChecks,
    );
  return entry.outcome === filter;
}

/**
 * Search over the registration (as typed or normalised), every other cell of the row, and what
 * the answer says of the vehicle: its insurer, make and model.
 */
export function matchesSearch(entry: ResultRow, search: string): boolean {
  const needle = search.trim().toUpperCase();
  if (needle === "") return true;
  const compact = needle.replace(/[\s-]+/g, "");
  const { row } = entry;
  if (row.registration?.includes(compact)) return true;
  const insurance = entry.result?.insurance;
  const vehicle =
    insurance && "vehicle" in insurance ? insurance.vehicle : undefined;
  const answer = [
    insurance?.status === "insured" ? insurance.policy.insurer : "",
    vehicle ? `${vehicle.make} ${vehicle.model}` : "",
  ];
  return [
    row.submitted,
    ...(row.edited ? [row.edited] : []),
    ...row.extra,
    ...answer,
  ].some((cell) => cell.toUpperCase().includes(needle));
}

export type SortColumn =
  | "action"
  | "line"
  | "registration"
  | "insurer"
  | "validTo"
  | "make"
  | { extra: number };

export interface SortOrder {
  column: SortColumn;
  direction: "ascending" | "descending";
}

export const DEFAULT_SORT: SortOrder = {
  column: "action",
  direction: "ascending",
};

function sortValue(entry: ResultRow, column: SortColumn): string | number {
  const insurance = entry.result?.insurance;
  if (typeof column === "object") return entry.row.extra[column.extra] ?? "";
  switch (column) {
    case "action":
      return actionRank(entry);
    case "line":
      return entry.row.line;
    case "registration":
      return entry.row.registration ?? entry.row.submitted.toUpperCase();
    case "insurer":
      return insurance?.status === "insured" ? insurance.policy.insurer : "";
    case "validTo":
      return insurance?.status === "insured" ? insurance.policy.validTo : "";
    case "make": {
      const vehicle =
        insurance && "vehicle" in insurance ? insurance.vehicle : undefined;
      return vehicle ? `${vehicle.make} ${vehicle.model}` : "";
    }
  }
}

const collator = new Intl.Collator("en-GB", { numeric: true });

function compare(a: string | number, b: string | number): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  // Blanks sort last whichever way, so "no insurer" never buries the answers.
  if (a === "" || b === "") return a === b ? 0 : a === "" ? 1 : -1;
  return collator.compare(String(a), String(b));
}

/** Filter, search and sort; ties keep the list's own order. */
export function viewRows(
  all: readonly ResultRow[],
  options: { filter: OutcomeFilter; search: string; sort: SortOrder },
): ResultRow[] {
  const { column, direction } = options.sort;
  const sign = direction === "ascending" ? 1 : -1;
  const keyed = all
    .filter(
      (entry) =>
        matchesFilter(entry, options.filter) &&
        matchesSearch(entry, options.search),
    )
    .map((entry) => ({ entry, key: sortValue(entry, column) }));
  keyed.sort((a, b) => {
    const blankA = a.key === "";
    const blankB = b.key === "";
    const order =
      blankA || blankB ? compare(a.key, b.key) : sign * compare(a.key, b.key);
    return order || a.entry.position - b.entry.position;
  });
  return keyed.map(({ entry }) => entry);
}
