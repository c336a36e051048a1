// The data page's words: a source's freshness, an import's kind, outcome and counts.
import type { DataAsOf } from "@vics/shared";
import type { DataSources, ImportEntry } from "@vics/shared/data-admin";
import { daysBetween, formatDate, ukToday } from "../../../lib/dates.ts";
import { count } from "../../../lib/count.ts";

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
  return `${count(days)} days ago`;
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

/** "1,200 rows: 1,000 added, 150 changed, 40 unchanged, 0 removed, 10 refused". */
export function countWords({ counts }: ImportEntry): string {
  return `${count(counts.rows)} row${counts.rows === 1 ? "" : "s"}: ${count(counts.added)} added, ${count(counts.changed)} changed, ${count(counts.unchanged)} unchanged, ${count(counts.removed)} removed, ${count(counts.rejected)} refused`;
}

/**
 * Whether the answers are synthetic, in words; undefined for a database that was never seeded.
 * A trial import over the seed changes only what it loads: every vehicle it did not touch is
 * still the synthetic fleet's, so the page goes on saying so for as long as the seed is there.
 */
export function syntheticWords(sources: DataSources): string | undefined {
  const seed = sources.seededFleet;
  const fleet = seed
    ? `the synthetic demo fleet of ${count(seed.vehicles)} vehicles seeded on ${formatDate(seed.seededOn)}`
    : "the synthetic demo fleet";
  if (sources.synthetic)
    return `This database holds ${fleet}, not real data: the sandbox registrations answer, and every source is as of its seeding.`;
  if (seed)
    return `This database still holds ${fleet}, with imports over it. Only what the imports below loaded is real data: every other answer is about a synthetic vehicle.`;
  return undefined;
}
