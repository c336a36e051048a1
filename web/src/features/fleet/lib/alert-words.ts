// A watched vehicle's status and alerts in words a fleet manager acts on: never a raw kind or
// key, always the date.
import type { Alert, WatchedVehicle } from "@vics/shared";
import { formatDate, formatTimeOnDate } from "../../../lib/dates.ts";

const AREA_WORDS: Record<string, string> = {
  insurance: "Insurance",
  mot: "MOT",
  tax: "Road tax",
};

const text = (value: string | number | null | undefined) =>
  value === null || value === undefined ? "" : String(value);

function endingWords(detail: Alert["detail"]): string {
  const area = AREA_WORDS[text(detail.area)] ?? "Cover";
  const date = formatDate(text(detail.date));
  const threshold = Number(detail.threshold);
  if (threshold === 0) return `${area} ends today (${date})`;
  if (threshold === 1) return `${area} ends tomorrow (${date})`;
  return `${area} ends within ${threshold} days (${date})`;
}

export function alertWords(alert: Alert): string {
  const { detail } = alert;
  switch (alert.kind) {
    case "not-insured":
      if (detail.how === "never") return "Not insured: no policy on record";
      return `Not insured: policy ${text(detail.policy)} ${
        detail.how === "cancelled" ? "was cancelled, ending" : "lapsed"
      } on ${formatDate(text(detail.endedOn))}`;
    case "insured-again":
      return `Insured again: policy ${text(detail.policy)} with ${text(detail.insurer)}`;
    case "ending":
      return endingWords(detail);
    case "mot-expired":
      return detail.expiry
        ? `MOT expired on ${formatDate(text(detail.expiry))}`
        : "MOT expired";
    case "untaxed":
      return detail.status === "sorn"
        ? "Declared off the road (SORN)"
        : "Untaxed";
    case "new-fine":
      return `New fine: ${text(detail.count)} outstanding, £${(Number(detail.totalPence) / 100).toFixed(2)} in all`;
    case "fines-paid":
      return "Fines paid";
    case "not-found":
      return "No longer found on the register";
  }
}

export type WatchedStatus =
  | "not-insured"
  | "unknown"
  | "not-found"
  | "pending"
  | "not-checked-yet"
  | "insured";

/** The vehicle's insurance status as the fleet page shows it, and its words. */
export function watchedStatus(vehicle: WatchedVehicle): {
  status: WatchedStatus;
  words: string;
} {
  if (vehicle.unknownSince)
    return {
      status: "unknown",
      words: `Unknown since ${formatTimeOnDate(vehicle.unknownSince)}`,
    };
  const facts = vehicle.facts;
  if (!facts) return { status: "not-checked-yet", words: "Not checked yet" };
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
