// A saved fleet's vehicles in the order a fleet manager acts on them: not insured first, then
// unknown and not found, new vehicles pending, those not checked yet, then insured; within each,
// those with open alerts first, then by registration.
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

export function inActionOrder(
  vehicles: readonly WatchedVehicle[],
): WatchedVehicle[] {
  const rank = (v: WatchedVehicle) =>
    WATCHED_ORDER.indexOf(watchedStatus(v).status);
  return [...vehicles].sort(
    (a, b) =>
      rank(a) - rank(b) ||
      Number(b.alerts.length > 0) - Number(a.alerts.length > 0) ||
      a.registration.localeCompare(b.registration),
  );
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
