// A watched vehicle's timeline in words: what each re-check found different, with the date.
import {
  formatPoundsAndPence,
  LIVE_SOURCE_LABELS,
  type VehicleFacts,
} from "@vics/shared";
import { formatDate } from "../../../lib/dates.ts";
import { RECORDS_LABEL } from "../../../lib/fact-origin.ts";

type Area = "found" | "insurance" | "mot" | "tax" | "fines";

function insuranceWords(facts: VehicleFacts["insurance"] | null): string {
  if (!facts) return "No answer";
  switch (facts.status) {
    case "insured":
      return `Insured by ${facts.policy.insurer} (policy ${facts.policy.number}) until ${formatDate(facts.policy.validTo)}`;
    case "pending":
      return "Not yet on record (new vehicle)";
    case "not-insured":
      return facts.lastPolicy
        ? `Not insured: policy ${facts.lastPolicy.number} ended ${formatDate(facts.lastPolicy.validTo)}`
        : facts.lastPolicy === null
          ? "Not insured: no policy on record"
          : // The upstream did not say which policy ended: no claim of "never".
            "Not insured";
  }
}

function motWords(facts: VehicleFacts["mot"] | null): string {
  if (!facts) return "No answer";
  const until = facts.expiry ? ` ${formatDate(facts.expiry)}` : "";
  switch (facts.status) {
    case "valid":
      return `MOT valid until${until}`;
    case "expired":
      return `MOT expired${until ? ` on${until}` : ""}`;
    case "exempt":
      return "MOT not needed yet";
    case "none":
      return "No MOT on record";
  }
}

function taxWords(facts: VehicleFacts["tax"] | null): string {
  if (!facts) return "No answer";
  if (facts.status === "taxed")
    return facts.dueDate ? `Taxed until ${formatDate(facts.dueDate)}` : "Taxed";
  return facts.status === "sorn" ? "Declared off the road (SORN)" : "Untaxed";
}

function finesWords(facts: VehicleFacts["fines"] | null): string {
  if (!facts) return "No answer";
  if (facts.count === 0) return "No outstanding fines";
  return `${facts.count} outstanding ${facts.count === 1 ? "fine" : "fines"}, ${formatPoundsAndPence(facts.totalPence)}`;
}

export const AREA_NAMES: Record<Area, string> = {
  found: "Register",
  insurance: "Insurance",
  mot: "MOT",
  tax: "Road tax",
  fines: "Fines",
};

/** The facts a live register may give (decision 059). */
type SourcedFacts = NonNullable<VehicleFacts["mot"] | VehicleFacts["tax"]>;

/**
 * Where a road tax or MOT fact came from, when the two sides of a change differ in it: a
 * register's fact replaced by VICS's records' (an import), or the other way (decision 059).
 */
function sourceWords(
  facts: SourcedFacts,
  other: SourcedFacts | null | undefined,
): string {
  const own = facts.source;
  if (own === other?.source) return "";
  return ` (${own ? LIVE_SOURCE_LABELS[own] : RECORDS_LABEL})`;
}

/**
 * The area's facts in words. Nothing before: "First seen" (the first answer); nothing after:
 * "No longer known" (the vehicle not found, or the answer without that part). `other`: the
 * other side of the change, so that when the two sides came from different places each says
 * where (the proxy records a tax or MOT change by its value, never a change of source alone).
 */
export function areaWords(
  area: Area,
  facts: unknown,
  side: "before" | "after" = "after",
  other?: unknown,
): string {
  if (facts === null || facts === undefined)
    return side === "before" ? "First seen" : "No longer known";
  switch (area) {
    case "found":
      return facts ? "On the register" : "Not found on the register";
    case "insurance":
      return insuranceWords(facts as VehicleFacts["insurance"]);
    case "mot":
      return (
        motWords(facts as VehicleFacts["mot"]) +
        sourceWords(
          facts as SourcedFacts,
          other as SourcedFacts | null | undefined,
        )
      );
    case "tax":
      return (
        taxWords(facts as VehicleFacts["tax"]) +
        sourceWords(
          facts as SourcedFacts,
          other as SourcedFacts | null | undefined,
        )
      );
    case "fines":
      return finesWords(facts as VehicleFacts["fines"]);
  }
}
