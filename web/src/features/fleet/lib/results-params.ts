// The results' filter, search and sort as the address's search params (?show=&q=&sort=&dir=),
// so a reload or a link shared with a colleague opens the same rows. Anything the page does not
// know (an old link, a hand-edited one) falls back to the default, never to an error.
import type { OutcomeFilter } from "./results-view.ts";
import {
  DEFAULT_SORT,
  type SortColumn,
  type SortOrder,
} from "./results-sort.ts";
import { OUTCOME_ORDER } from "@vics/fleet";

export interface ResultsParams {
  filter: OutcomeFilter;
  search: string;
  sort: SortOrder;
}

const ALWAYS: readonly OutcomeFilter[] = [
  "all",
  "needs-action",
  ...OUTCOME_ORDER,
];

/**
 * The filters that mean something only when the run checked compliance, with their words in the
 * "Show" list: one list, so the address cannot name a filter the page does not offer.
 */
export const COMPLIANCE_FILTERS: ReadonlyArray<[OutcomeFilter, string]> = [
  ["not-compliant", "Not compliant"],
  ["failing-insuranceValid", "Failing insurance"],
  ["failing-motValid", "Failing MOT"],
  ["failing-roadTaxPaid", "Failing road tax"],
  ["failing-noOutstandingFines", "With unpaid fines"],
  ["due-mot", "MOT due within 30 days"],
  ["due-tax", "Tax due within 30 days"],
  ["due-any", "Anything due within 30 days"],
];

const COMPLIANCE_ONLY = COMPLIANCE_FILTERS.map(([filter]) => filter);

const NAMED_COLUMNS: readonly SortColumn[] = [
  "action",
  "line",
  "registration",
  "insurer",
  "validTo",
  "motDue",
  "taxDue",
  "make",
];

function readFilter(value: string | null, checkCompliance: boolean) {
  const known = [...ALWAYS, ...(checkCompliance ? COMPLIANCE_ONLY : [])];
  return known.find((filter) => filter === value) ?? "all";
}

function readColumn(value: string | null, extraColumns: number) {
  const named = NAMED_COLUMNS.find((column) => column === value);
  if (named) return named;
  const extra = /^extra-(\d+)$/.exec(value ?? "");
  const index = extra ? Number(extra[1]) : -1;
  return index >= 0 && index < extraColumns ? { extra: index } : undefined;
}

export function readResultsParams(
  params: URLSearchParams,
  run: { checkCompliance: boolean; extraColumns: readonly unknown[] },
): ResultsParams {
  const column = readColumn(params.get("sort"), run.extraColumns.length);
  const direction = params.get("dir");
  return {
    filter: readFilter(params.get("show"), run.checkCompliance),
    search: params.get("q") ?? "",
    sort:
      column && !(column === "action" && direction !== "descending")
        ? {
            column,
            direction: direction === "descending" ? "descending" : "ascending",
          }
        : DEFAULT_SORT,
  };
}

/** The params for `state`, the defaults left out; other params of the address are kept. */
export function writeResultsParams(
  current: URLSearchParams,
  state: ResultsParams,
): URLSearchParams {
  const next = new URLSearchParams(current);
  for (const key of ["show", "q", "sort", "dir"]) next.delete(key);
  if (state.filter !== "all") next.set("show", state.filter);
  if (state.search !== "") next.set("q", state.search);
  if (state.sort !== DEFAULT_SORT) {
    const { column, direction } = state.sort;
    next.set(
      "sort",
      typeof column === "object" ? `extra-${column.extra}` : column,
    );
    next.set("dir", direction);
  }
  return next;
}
