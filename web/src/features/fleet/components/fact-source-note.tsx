// Under a row's MOT due and Tax due: which live register gave the fact and when, "DVLA, 10:02
// today" (issue 35). Only for a register's fact: one from VICS's own records is what every
// row showed before, and its date is in the export and on the vehicle's compliance page.
import { formatTimeOnDay } from "../../../lib/dates.ts";
import { liveOrigin, STALE_SHORT_WORDS } from "../../../lib/fact-origin.ts";
import type { ResultRow } from "../lib/results-view.ts";

type Component = "tax" | "mot";

/** The register's fact for this component of the row, if a register gave it. */
export function liveFact(entry: ResultRow, component: Component) {
  const compliance = entry.result?.compliance;
  return compliance?.status === "checked"
    ? compliance.factSources?.[component]
    : undefined;
}

/** "DVLA, 10:02 today", and, when stale, that it is the stored fact. */
export function sourceNoteWords(
  entry: ResultRow,
  component: Component,
  today: string,
): string | undefined {
  const fact = liveFact(entry, component);
  if (!fact) return undefined;
  const origin = liveOrigin(fact);
  const words = `${origin.label}, ${formatTimeOnDay(origin.asOf, today)}`;
  return origin.stale ? `${words} (${STALE_SHORT_WORDS})` : words;
}

export function FactSourceNote({
  entry,
  component,
  today,
}: {
  entry: ResultRow;
  component: Component;
  today: string;
}) {
  const words = sourceNoteWords(entry, component, today);
  if (!words) return null;
  return (
    <span className="results-table__detail results-table__source">
      <span className="visually-hidden">Source: </span>
      {words}
    </span>
  );
}
