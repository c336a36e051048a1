// The data page's words: a source's freshness, an import's kind, outcome and counts.
import type { DataAsOf } from "@vics/shared";
import type { ImportEntry } from "@vics/shared/data-admin";
import { daysBetween, ukToday } from "../../../lib/dates.ts";

/** A source whose data is older than this many days is flagged: its sources send daily. */
export const STALE_AFTER_DAYS = 2;

export const SOURCE_ROWS: { source: keyof DataAsOf; label: string }[] = [
  { source: "insurance", label: "Insurance" },
  { source: "mot", label: "MOT" },
  { source: "tax", label: "Road tax" },
  { source: "fines", label: "Fines" },
];

/** "today", "yesterday", "5 days ago", from the UK's date. */
export function ageWords(at: string, now: Date): string {
  const days = daysBetween(ukToday(new Date(at)), ukToday(now));
  if (days <= 0) return "today";
  if (days === 1) return "yesterday";
  return `${days.toLocaleString("en-GB")} days ago`;
}

export const isStale = (at: string, now: Date) =>
  daysBetween(ukToday(new Date(at)), ukToday(now)) > STALE_AFTER_DAYS;

export const KIND_WORDS: Record<ImportEntry["kind"], string> = {
  vehicles: "Vehicles",
  policies: "Policies",
  mot: "MOT tests",
  tax: "Road tax",
  fines: "Fines",
};

export const OUTCOME_WORDS: Record<ImportEntry["outcome"], string> = {
  applied: "Applied",
  refused: "Refused",
  "already-imported": "Already imported",
};

const count = (value: number) => value.toLocaleString("en-GB");

/** "1,200 rows: 1,000 added, 150 changed, 40 unchanged, 0 removed, 10 refused". */
export function countWords({ counts }: ImportEntry): string {
  return `${count(counts.rows)} row${counts.rows === 1 ? "" : "s"}: ${count(counts.added)} added, ${count(counts.changed)} changed, ${count(counts.unchanged)} unchanged, ${count(counts.removed)} removed, ${count(counts.rejected)} refused`;
}
