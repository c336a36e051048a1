// A saved fleet's vehicles in the order a fleet manager acts on them: those needing action
// first (not insured, unknown, not found, new and pending, or with an open alert), then the rest;
// within each, by status (not insured, unknown, not found, pending, not checked yet, insured),
// those with open alerts first, then by registration. Also the statuses' words, which the fleet
// page's counts, filters and exports share.
import type { WatchedVehicle } from "@vics/shared";
import { watchedStatus, type WatchedStatus } from "./alert-words.ts";

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

/** The statuses that need the fleet manager: every one before "not checked yet". */
const NEEDS_ACTION_STATUSES = WATCHED_ORDER.slice(
  0,
  WATCHED_ORDER.indexOf("not-checked-yet"),
);

/**
 * Whether a vehicle needs the fleet manager: its status does, or it has an open alert (cover,
 * MOT or tax ending, an MOT expired, untaxed, a new fine), whatever its insurance says.
 */
export function needsAction(
  vehicle: WatchedVehicle,
  status: WatchedStatus = watchedStatus(vehicle).status,
): boolean {
  return NEEDS_ACTION_STATUSES.includes(status) || vehicle.alerts.length > 0;
}

/** The status of each vehicle is worked out once, not at every comparison of the sort. */
export function inActionOrder(
  vehicles: readonly WatchedVehicle[],
): WatchedVehicle[] {
  return vehicles
    .map((vehicle) => {
      const { status } = watchedStatus(vehicle);
      return {
        vehicle,
        acts: Number(needsAction(vehicle, status)),
        rank: WATCHED_ORDER.indexOf(status),
      };
    })
    .sort(
      (a, b) =>
        b.acts - a.acts ||
        a.rank - b.rank ||
        Number(b.vehicle.alerts.length > 0) -
          Number(a.vehicle.alerts.length > 0) ||
        a.vehicle.registration.localeCompare(b.vehicle.registration),
    )
    .map(({ vehicle }) => vehicle);
}

/** How many vehicles have each status. */
export function statusCounts(
  vehicles: readonly WatchedVehicle[],
): Record<WatchedStatus, number> {
  const counts = Object.fromEntries(WATCHED_ORDER.map((s) => [s, 0])) as Record<
    WatchedStatus,
    number
  >;
  for (const vehicle of vehicles) counts[watchedStatus(vehicle).status] += 1;
  return counts;
}
