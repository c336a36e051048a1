// A watched vehicle's timeline: each area of its facts that a re-check found different from
// the last answered one, before and after. The first re-check records what it found.
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

export function timelineEntries(
  previous: VehicleFacts | undefined,
  next: VehicleFacts,
): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  for (const name of AREAS) {
    const before = area(previous, name);
    const after = area(next, name);
    if (after === null && before === null) continue;
    if (JSON.stringify(before) !== JSON.stringify(after))
      entries.push({ area: name, before, after });
  }
  return entries;
}
