// A watched vehicle's timeline: each area of its facts that a re-check found different from
// the last answered one, before and after. The first re-check records what it found.
// A register's tax or MOT is compared by its value, not by which register gave it: turning DVLA
// on would otherwise record a change for every watched vehicle whose dates it merely confirms.
// When the value did change, before and after keep their sources, so the words say where each
// side came from (decision 059: a register that disagrees with an import shows both).
import type { TimelineArea, TimelineEntry } from "../store/watch-store.ts";
import type { VehicleFacts } from "./vehicle-facts.ts";

const AREAS: readonly TimelineArea[] = [
  "found",
  "insurance",
  "mot",
  "tax",
  "fines",
];

const area = (facts: VehicleFacts | undefined, name: TimelineArea) =>
  facts === undefined ? null : (facts[name] ?? null);

/** The area's value as compared: without the register that gave it. */
function value(fact: unknown): string {
  if (fact === null || typeof fact !== "object") return JSON.stringify(fact);
  const { source: _source, ...rest } = fact as Record<string, unknown>;
  return JSON.stringify(rest);
}

export function timelineEntries(
  previous: VehicleFacts | undefined,
  next: VehicleFacts,
): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  for (const name of AREAS) {
    const before = area(previous, name);
    const after = area(next, name);
    if (after === null && before === null) continue;
    if (value(before) !== value(after))
      entries.push({ area: name, before, after });
  }
  return entries;
}
