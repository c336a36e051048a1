// The results as the page shows them: one entry per row of the user's list with its outcome,
// the order that puts vehicles needing action first, and the filters, search and sorting of
// the results table. Pure, so 100,000 rows are tested without a browser.
import type { ComplianceChecks } from "@vics/shared";
import {
  dueDates,
  dueSoon,
  NEEDS_ACTION,
  rowOutcome,
  type RowOutcome,
} from "@vics/fleet";
import type { FleetRow, VehicleResult } from "./fleet-types.ts";
import type { ResultRow } from "./result-row.ts";
import { compareValues, sortValue, type SortOrder } from "./results-sort.ts";

export type { ResultRow } from "./result-row.ts";

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
      due: dueDates(result),
      dueSoon: dueSoon(result, today),
    };
  });
}

export type OutcomeFilter =
  | "all"
  | "needs-action"
  | RowOutcome
  | "not-compliant"
  | `failing-${keyof ComplianceChecks}`
  /** Falls due within 30 days: the MOT, road tax, or any of cover, MOT and tax. */
  | "due-mot"
  | "due-tax"
  | "due-any";

export function needsAction(entry: ResultRow): boolean {
  return (
    entry.compliant === false ||
    entry.complianceNotChecked ||
    entry.dueSoon.length > 0 ||
    NEEDS_ACTION.includes(entry.outcome)
  );
}

export function matchesFilter(
  entry: ResultRow,
  filter: OutcomeFilter,
): boolean {
  if (filter === "all") return true;
  if (filter === "needs-action") return needsAction(entry);
  if (filter === "not-compliant") return entry.compliant === false;
  if (filter === "due-any") return entry.dueSoon.length > 0;
  if (filter === "due-mot" || filter === "due-tax") {
    const kind = filter === "due-mot" ? "mot" : "tax";
    return entry.dueSoon.some((due) => due.kind === kind);
  }
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
      blankA || blankB
        ? compareValues(a.key, b.key)
        : sign * compareValues(a.key, b.key);
    return order || a.entry.position - b.entry.position;
  });
  return keyed.map(({ entry }) => entry);
}
