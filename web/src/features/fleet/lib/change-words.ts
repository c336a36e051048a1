// What moved for a watched vehicle, in words, from the timeline entries its fleet's status gives
// with "changed since": "Road tax: from Taxed until 1 June 2026 to Untaxed (seen 10 June 2026 at
// 06:00)". The areas' words are the timeline page's own.
import type { WatchedVehicle } from "@vics/shared";
import { formatDateTime } from "../../../lib/dates.ts";
import { AREA_NAMES, areaWords } from "./timeline-words.ts";

export type Change = NonNullable<WatchedVehicle["changes"]>[number];

export function changeWords(change: Change): string {
  const { area, before, after } = change;
  const now = areaWords(area, after, "after", before);
  const what =
    before === null || before === undefined
      ? `first seen, ${now}`
      : `from ${areaWords(area, before, "before", after)} to ${now}`;
  return `${AREA_NAMES[area]}: ${what} (seen ${formatDateTime(change.at)})`;
}
