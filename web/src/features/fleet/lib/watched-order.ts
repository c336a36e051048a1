// A saved fleet's statuses in the order a fleet manager acts on them (not insured, unknown, not
// found, pending, not checked yet, insured), and their words, which the fleet page's counts,
// filters and exports share. The vehicles themselves are put in this order by watchedEntries.

/** A watched vehicle's insurance status as the fleet page shows it (alert-words.ts finds it). */
export type WatchedStatus =
  | "not-insured"
  | "unknown"
  | "not-found"
  | "pending"
  | "not-checked-yet"
  | "insured";

export const WATCHED_ORDER: readonly WatchedStatus[] = [
  "not-insured",
  "unknown",
  "not-found",
  "pending",
  "not-checked-yet",
  "insured",
];

/** Each status in words, as a filter names it and an export's Status column says it. */
export const STATUS_LABELS: Record<WatchedStatus, string> = {
  "not-insured": "Not insured",
  unknown: "Unknown (no answer yet)",
  "not-found": "Not found",
  pending: "New, not yet on record",
  "not-checked-yet": "Not checked yet",
  insured: "Insured",
};

/**
 * A status in words, as the table, the counts and the filters say it: while a check of the fleet
 * is under way (`checking`), a vehicle never checked is "Checking now", not "Not checked yet".
 */
export function statusLabel(status: WatchedStatus, checking = false): string {
  return status === "not-checked-yet" && checking
    ? "Checking now"
    : STATUS_LABELS[status];
}
