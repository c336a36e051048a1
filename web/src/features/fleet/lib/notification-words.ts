// The notifications page's rows in words: a sweep's alerts of one kind in one fleet ("Sweep of
// 28 November 2026 at 06:00: 12 vehicles in Vans became untaxed or SORN"), a fleet's first
// check summed up ("Vans: first check of 2,000 vehicles, 961 need attention"), and the kinds a
// user filters by.
import type { AlertKind, NotificationKind } from "@vics/shared";
import { formatDateTime } from "../../../lib/dates.ts";
import { count } from "../../../lib/count.ts";

const vehicles = (value: number) =>
  `${count(value)} ${value === 1 ? "vehicle" : "vehicles"}`;

/** What happened to the vehicles of a row: [one vehicle, several]. */
const HAPPENED: Record<AlertKind, [string, string]> = {
  "not-insured": ["is no longer insured", "are no longer insured"],
  "insured-again": ["is insured again", "are insured again"],
  ending: [
    "has cover, MOT or tax ending soon",
    "have cover, MOT or tax ending soon",
  ],
  "mot-expired": ["had its MOT expire", "had their MOT expire"],
  untaxed: ["became untaxed or SORN", "became untaxed or SORN"],
  "new-fine": ["has a new fine", "have a new fine"],
  "fines-paid": ["had its fines paid", "had their fines paid"],
  "not-found": [
    "is no longer found on the record",
    "are no longer found on the record",
  ],
};

/** "Sweep of 28 November 2026 at 06:00: 12 vehicles in Vans became untaxed or SORN". */
export function sweepRowWords(row: {
  at: string;
  count: number;
  kind: AlertKind;
  fleet: { name: string };
}): string {
  const [one, several] = HAPPENED[row.kind];
  return `Sweep of ${formatDateTime(row.at)}: ${vehicles(row.count)} in ${row.fleet.name} ${row.count === 1 ? one : several}`;
}

/** "Vans: first check of 2,000 vehicles, 961 need attention". */
export function firstCheckWords(row: {
  vehicles: number;
  attention: number;
  fleet: { name: string };
}): string {
  const attention =
    row.attention === 0
      ? "none needs attention"
      : `${count(row.attention)} ${row.attention === 1 ? "needs" : "need"} attention`;
  return `${row.fleet.name}: first check of ${vehicles(row.vehicles)}, ${attention}`;
}

/** The kinds to filter by, as the filter names them. */
export const NOTIFICATION_KIND_LABELS: Record<NotificationKind, string> = {
  "first-check": "First checks of a fleet",
  "not-insured": "Not insured",
  "insured-again": "Insured again",
  ending: "Cover, MOT or tax ending",
  "mot-expired": "MOT expired",
  untaxed: "Untaxed or SORN",
  "new-fine": "New fines",
  "fines-paid": "Fines paid",
  "not-found": "Not found",
};
