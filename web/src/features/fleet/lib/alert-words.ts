// A watched vehicle's status and alerts in words a fleet manager acts on: never a raw kind or
// key, always the date. The alerts' words live in @vics/shared, so the proxy's emails and
// webhooks say exactly what the pages say; the status is the fleet page's own.
import type { WatchedVehicle } from "@vics/shared";
import { formatDate, formatTimeOnDate } from "../../../lib/dates.ts";
import { statusLabel, type WatchedStatus } from "./watched-order.ts";

export { alertWords } from "@vics/shared";

export type { WatchedStatus } from "./watched-order.ts";

/**
 * The vehicle's insurance status as the fleet page shows it, and its words. `checking`: a check
 * of its fleet is under way (its first, started as it was saved), so one never checked is
 * "Checking now", not "Not checked yet".
 */
export function watchedStatus(
  vehicle: WatchedVehicle,
  checking = false,
): {
  status: WatchedStatus;
  words: string;
} {
  if (vehicle.unknownSince)
    return {
      status: "unknown",
      words: `Unknown since ${formatTimeOnDate(vehicle.unknownSince)}`,
    };
  const facts = vehicle.facts;
  if (!facts)
    return {
      status: "not-checked-yet",
      words: statusLabel("not-checked-yet", checking),
    };
  if (!facts.found) return { status: "not-found", words: "Not found" };
  const insurance = facts.insurance;
  if (insurance?.status === "insured")
    return {
      status: "insured",
      words: `Insured until ${formatDate(insurance.policy.validTo)}`,
    };
  if (insurance?.status === "pending")
    return {
      status: "pending",
      words: "Not yet on record (new vehicle)",
    };
  return { status: "not-insured", words: "Not insured" };
}
