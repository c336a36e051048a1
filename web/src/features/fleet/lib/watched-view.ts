// A saved fleet's vehicles as its page shows them: each with its status worked out once, in the
// order of action, and the page's filters (needing action, or one status), its search (the
// registration and the team's own cells) and the count each filter would show. Pure, so a fleet
// of 100,000 is tested without a browser.
import type { WatchedVehicle } from "@vics/shared";
import { watchedStatus, type WatchedStatus } from "./alert-words.ts";
import { WATCHED_ORDER, statusLabel } from "./watched-order.ts";

export type WatchedFilter = "all" | "needs-action" | WatchedStatus;

/**
 * The filters in the order the page offers them, with their words; `checking`: a check of the
 * fleet is under way, so the vehicles never checked are offered as "Checking now".
 */
export function watchedFilters(
  checking = false,
): ReadonlyArray<[WatchedFilter, string]> {
  return [
    ["all", "All vehicles"],
    ["needs-action", "Vehicles that need action"],
    ...WATCHED_ORDER.map((status): [WatchedFilter, string] => [
      status,
      statusLabel(status, checking),
    ]),
  ];
}

export interface WatchedEntry {
  vehicle: WatchedVehicle;
  status: WatchedStatus;
  /** The status in words: "Insured until 31 January 2027", "Unknown since 06:00 on…". */
  words: string;
  needsAction: boolean;
}

/** The statuses that need the fleet manager: every one before "not checked yet". */
const NEEDS_ACTION_STATUSES = WATCHED_ORDER.slice(
  0,
  WATCHED_ORDER.indexOf("not-checked-yet"),
);

/** Each status's place in WATCHED_ORDER, looked up at each comparison of the sort. */
const RANK = Object.fromEntries(
  WATCHED_ORDER.map((status, index) => [status, index]),
) as Record<WatchedStatus, number>;

/**
 * The vehicles, each with its status worked out once, in the order a fleet manager acts on
 * them: those needing action first (their status does, or they have an open alert: cover, MOT or
 * tax ending, an MOT expired, untaxed, a new fine, whatever their insurance says), then the
 * rest; within each, by status in WATCHED_ORDER, those with open alerts first, then by
 * registration.
 */
export function watchedEntries(
  vehicles: readonly WatchedVehicle[],
  /** A check of the fleet is under way: a vehicle not checked yet is "Checking now". */
  checking = false,
): WatchedEntry[] {
  return vehicles
    .map((vehicle): WatchedEntry => {
      const { status, words } = watchedStatus(vehicle, checking);
      return {
        vehicle,
        status,
        words,
        needsAction:
          NEEDS_ACTION_STATUSES.includes(status) || vehicle.alerts.length > 0,
      };
    })
    .sort(
      (a, b) =>
        Number(b.needsAction) - Number(a.needsAction) ||
        RANK[a.status] - RANK[b.status] ||
        Number(b.vehicle.alerts.length > 0) -
          Number(a.vehicle.alerts.length > 0) ||
        a.vehicle.registration.localeCompare(b.vehicle.registration),
    );
}

/** Those with a change in the timeline they were asked with (`changedSince`). */
export function changedEntries(
  entries: readonly WatchedEntry[],
): WatchedEntry[] {
  return entries.filter((entry) => (entry.vehicle.changes?.length ?? 0) > 0);
}

function matchesWatchedFilter(
  entry: WatchedEntry,
  filter: WatchedFilter,
): boolean {
  if (filter === "all") return true;
  if (filter === "needs-action") return entry.needsAction;
  return entry.status === filter;
}

/** The registration, however it is spaced, or any of the team's own cells, in any case. */
function matchesWatchedSearch(entry: WatchedEntry, search: string): boolean {
  const needle = search.trim().toUpperCase();
  if (needle === "") return true;
  const { registration, cells } = entry.vehicle;
  if (registration.includes(needle.replace(/[\s-]+/g, ""))) return true;
  return cells.some((cell) => cell.toUpperCase().includes(needle));
}

export function viewWatched(
  entries: readonly WatchedEntry[],
  { filter, search }: { filter: WatchedFilter; search: string },
): WatchedEntry[] {
  return entries.filter(
    (entry) =>
      matchesWatchedFilter(entry, filter) &&
      matchesWatchedSearch(entry, search),
  );
}

/** How many vehicles each filter would show. */
export function filterCounts(
  entries: readonly WatchedEntry[],
): Record<WatchedFilter, number> {
  const counts = Object.fromEntries(
    watchedFilters().map(([filter]) => [filter, 0]),
  ) as Record<WatchedFilter, number>;
  counts.all = entries.length;
  for (const entry of entries) {
    counts[entry.status] += 1;
    if (entry.needsAction) counts["needs-action"] += 1;
  }
  return counts;
}
