// Short words for a result row: why it is not answered, when cover ends, the compliance verdict.
import { daysBetween, formatDate } from "../../../lib/dates.ts";
import { recordDeadline, type DueKind } from "@vics/fleet";
import type { InsuranceOutcome } from "./fleet-types.ts";
import type { ResultRow } from "./results-view.ts";

const CHECK_WORDS = {
  insuranceValid: "insurance",
  motValid: "MOT",
  roadTaxPaid: "road tax",
  noOutstandingFines: "fines",
} as const;

/** The reason behind the outcome, where there is one to give. */
export function outcomeDetail(entry: ResultRow, today?: string): string {
  const { row, result, outcome } = entry;
  if (outcome === "invalid") return row.invalid?.reason ?? "";
  const insurance = result?.insurance;
  if (insurance?.status === "not-checked") return insurance.reason;
  if (outcome === "not-yet-on-record" && insurance?.status === "not-insured")
    return newVehicleWords(insurance);
  if (insurance?.status === "not-insured") return lapseWords(insurance, today);
  if (outcome === "expiring" && insurance?.status === "insured" && today) {
    const days = daysBetween(today, insurance.policy.validTo);
    return days === 0
      ? "ends today"
      : `ends in ${days} day${days === 1 ? "" : "s"}`;
  }
  return "";
}

/**
 * "Lapsed 20 days ago, on 4 November 2026 (Kestrel Direct)" or "Never insured"; nothing when
 * the upstream did not say which (its answer lacks the last policy, decision 021).
 */
export function lapseWords(
  insurance: Extract<InsuranceOutcome, { status: "not-insured" }>,
  today: string | undefined,
): string {
  const { lastPolicy } = insurance;
  if (lastPolicy === undefined) return "";
  if (lastPolicy === null) return "Never insured";
  const days = today ? daysBetween(lastPolicy.validTo, today) : undefined;
  const ago =
    days === undefined || days < 1
      ? ""
      : days === 1
        ? " yesterday,"
        : ` ${days} days ago,`;
  return `Lapsed${ago} on ${formatDate(lastPolicy.validTo)} (${lastPolicy.insurer})`;
}

/**
 * The lapse in a file's words: "Lapsed on 2026-11-04" or "Never insured"; nothing when the
 * upstream did not say. A date and never an age ("20 days ago"), since a saved file is read on
 * later days; the insurer and policy are in the file's own columns.
 */
export function lapseFileWords(
  insurance: Extract<InsuranceOutcome, { status: "not-insured" }>,
): string {
  const { lastPolicy } = insurance;
  if (lastPolicy === undefined) return "";
  if (lastPolicy === null) return "Never insured";
  return `Lapsed on ${lastPolicy.validTo}`;
}

/**
 * "First registered on 20 November 2026: its insurer has until 4 December 2026 to put the
 * policy on the record"; a file gives `date` to write its dates as YYYY-MM-DD.
 */
export function newVehicleWords(
  insurance: Extract<InsuranceOutcome, { status: "not-insured" }>,
  date: (iso: string) => string = formatDate,
): string {
  const first = insurance.vehicle?.firstRegistered;
  if (first === undefined) return "";
  return `First registered on ${date(first)}: its insurer has until ${date(recordDeadline(first))} to put the policy on the record`;
}

/** "Compliant", "Not compliant: MOT, road tax", "Not checked", or "" when not asked. */
export function complianceWords(entry: ResultRow): string {
  const compliance = entry.result?.compliance;
  if (!compliance) return "";
  switch (compliance.status) {
    case "checked":
      return compliance.compliant
        ? "Compliant"
        : `Not compliant: ${entry.failing.map((check) => CHECK_WORDS[check]).join(", ")}`;
    case "not-found":
      return "Not found";
    case "invalid":
      return "Invalid registration";
    case "not-checked":
      return "Not checked";
  }
}

const DUE_NAMES: Record<DueKind, [string, string]> = {
  insurance: ["Cover", "ends"],
  mot: ["MOT", "due"],
  tax: ["Tax", "due"],
};

/** The flag beside a date falling due soon: "MOT due in 12 days", "Cover ends tomorrow". */
export function dueSoonWords(kind: DueKind, daysLeft: number): string {
  const [name, verb] = DUE_NAMES[kind];
  const when =
    daysLeft === 0
      ? "today"
      : daysLeft === 1
        ? "tomorrow"
        : `in ${daysLeft} days`;
  return `${name} ${verb} ${when}`;
}

/**
 * What SORN means for the vehicle, where it is SORN: "untaxed" alone would let a manager think
 * paying the tax is all it needs, when a SORN vehicle may not even be parked on the road.
 */
export function sornWords(entry: ResultRow): string {
  const compliance = entry.result?.compliance;
  return compliance?.status === "checked" &&
    compliance.details?.tax.status === "sorn"
    ? "SORN: declared off the road, so it must not be driven or parked on a public road"
    : "";
}
