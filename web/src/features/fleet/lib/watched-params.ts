// The fleet page's filter, search and "changed since" date as the address's search params
// (?show=&q=&since=), so a link, a reload or the Back button from a vehicle's timeline opens the
// same vehicles. What the page does not know (an old link, a hand-edited one) falls back to the
// default, never to an error.
import { ukMidnight } from "@vics/shared";
import { watchedFilters, type WatchedFilter } from "./watched-view.ts";

export interface WatchedParams {
  filter: WatchedFilter;
  search: string;
  /** A UK date, YYYY-MM-DD: only the vehicles that changed from that day on. */
  since?: string;
}

export function readWatchedParams(params: URLSearchParams): WatchedParams {
  const show = params.get("show");
  const since = params.get("since") ?? "";
  return {
    filter: watchedFilters().find(([filter]) => filter === show)?.[0] ?? "all",
    search: params.get("q") ?? "",
    since: ukMidnight(since) === undefined ? undefined : since,
  };
}

/** The params for `state`, the defaults left out; other params of the address are kept. */
export function writeWatchedParams(
  current: URLSearchParams,
  state: WatchedParams,
): URLSearchParams {
  const next = new URLSearchParams(current);
  for (const key of ["show", "q", "since"]) next.delete(key);
  if (state.filter !== "all") next.set("show", state.filter);
  if (state.search !== "") next.set("q", state.search);
  if (state.since) next.set("since", state.since);
  return next;
}
