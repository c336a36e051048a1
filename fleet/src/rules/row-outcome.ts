// One outcome per row of the user's list, in words and in the order a fleet manager acts on
// them: the summary, the results table and the export all read it from here.
import { isExpiringSoon } from "./expiry.ts";
import { notYetOnRecord } from "./not-yet-on-record.ts";
import type { FleetRow, VehicleResult } from "../results.ts";

export type RowOutcome =
  | "not-insured"
  | "expiring"
  /**
   * Not insured as far as the record shows, but first registered in the last 14 days with no
   * policy ever on record: insurers may not have put its policy on the record yet.
   */
  | "not-yet-on-record"
  | "not-found"
  | "not-checked"
  | "invalid"
  | "insured"
  | "excluded"
  /** Not answered yet: a run in progress, or one stopped before it got to the vehicle. */
  | "pending";

/** Vehicles that need action first; "excluded" last. Also the order of the summary. */
export const OUTCOME_ORDER: readonly RowOutcome[] = [
  "not-insured",
  "expiring",
  "not-yet-on-record",
  "not-found",
  "not-checked",
  "invalid",
  "pending",
  "insured",
  "excluded",
];

/** The outcomes that need the fleet manager: every one before "pending" in that order. */
export const NEEDS_ACTION: readonly RowOutcome[] = OUTCOME_ORDER.slice(
  0,
  OUTCOME_ORDER.indexOf("pending"),
);

export const OUTCOME_LABELS: Record<RowOutcome, string> = {
  "not-insured": "Not insured",
  expiring: "Insured, expiring soon",
  "not-yet-on-record": "Not yet on record",
  "not-found": "Not found",
  "not-checked": "Not checked",
  invalid: "Invalid registration",
  pending: "Not checked yet",
  insured: "Insured",
  excluded: "Excluded",
};

/** `today` is the UK's date ("YYYY-MM-DD"), for "expiring within 30 days". */
export function rowOutcome(
  row: FleetRow,
  result: VehicleResult | undefined,
  today: string,
): RowOutcome {
  if (row.excluded) return "excluded";
  if (!row.registration) return "invalid";
  if (!result) return "pending";
  const { insurance } = result;
  switch (insurance.status) {
    case "insured":
      return isExpiringSoon(insurance.policy.validTo, today)
        ? "expiring"
        : "insured";
    case "not-insured":
      return notYetOnRecord(insurance, today)
        ? "not-yet-on-record"
        : "not-insured";
    case "not-found":
      return "not-found";
    case "invalid":
      return "invalid";
    case "not-checked":
      return "not-checked";
  }
}

/** Whether the row's vehicle is compliant: undefined when compliance was not checked or not answered. */
export function rowCompliant(
  result: VehicleResult | undefined,
): boolean | undefined {
  const compliance = result?.compliance;
  return compliance?.status === "checked" ? compliance.compliant : undefined;
}
