// The printable report's table: the rows that need the manager, worst first, each with the
// user's own columns (as many as fit an A4 page) and the reason in words.
import { formatRegistration } from "@vics/shared";
import { daysBetween, formatDate } from "../../../../lib/dates.ts";
import { DUE_KIND_WORDS, dueSoon } from "../due-dates.ts";
import type { FleetRow, VehicleResult } from "../fleet-types.ts";
import { complianceWords } from "../result-words.ts";
import { actionRank } from "../results-sort.ts";
import {
  buildResultRows,
  needsAction,
  type ResultRow,
} from "../results-view.ts";
import { OUTCOME_LABELS } from "../row-outcome.ts";
import { userColumnName, type ExportRun } from "./export-columns.ts";

/** The user's columns a portrait A4 page has room for beside ours. */
export const REPORT_USER_COLUMNS = 3;

export interface ReportRow {
  position: number;
  line: number;
  outcome: string;
  registration: string;
  user: string[];
  reason: string;
}

function inDays(days: number): string {
  if (days === 0) return "today";
  return `in ${days} day${days === 1 ? "" : "s"}`;
}

function reason(entry: ResultRow, today: string): string {
  const { row, result, outcome } = entry;
  const insurance = result?.insurance;
  const parts: string[] = [];
  if (outcome === "not-insured")
    parts.push("No insurance found for this vehicle");
  if (outcome === "expiring" && insurance?.status === "insured") {
    const end = insurance.policy.validTo;
    parts.push(
      `Cover ends ${inDays(daysBetween(today, end))}, on ${formatDate(end)}`,
    );
  }
  if (outcome === "not-found")
    parts.push(
      "No vehicle found with this registration: check it against the V5C",
    );
  if (outcome === "not-checked" && insurance?.status === "not-checked")
    parts.push(`Not checked: ${insurance.reason}. Run the check again`);
  if (outcome === "invalid")
    parts.push(row.invalid?.reason ?? "Invalid registration");
  if (entry.compliant === false) parts.push(complianceWords(entry));
  if (entry.complianceNotChecked)
    parts.push("Compliance not checked: run the check again");
  for (const due of dueSoon(result, today)) {
    if (due.kind === "insurance") continue;
    const words = DUE_KIND_WORDS[due.kind];
    parts.push(
      `${words[0]?.toUpperCase()}${words.slice(1)} due ${inDays(due.daysLeft)}, on ${formatDate(due.date)}`,
    );
  }
  return parts.join(". ");
}

export function reportColumns(run: ExportRun): string[] {
  return run.extraColumns.slice(0, REPORT_USER_COLUMNS).map(userColumnName);
}

function needsManager(entry: ResultRow, today: string): boolean {
  if (entry.outcome === "excluded" || entry.outcome === "pending") return false;
  return needsAction(entry) || dueSoon(entry.result, today).length > 0;
}

export function reportRows(
  rows: readonly FleetRow[],
  results: ReadonlyMap<string, VehicleResult>,
  today: string,
): ReportRow[] {
  return buildResultRows(rows, results, today)
    .filter((entry) => needsManager(entry, today))
    .sort((a, b) => actionRank(a) - actionRank(b) || a.position - b.position)
    .map((entry) => ({
      position: entry.position,
      line: entry.row.line,
      outcome: OUTCOME_LABELS[entry.outcome],
      registration: entry.row.registration
        ? formatRegistration(entry.row.registration)
        : entry.row.submitted,
      user: entry.row.extra.slice(0, REPORT_USER_COLUMNS),
      reason: reason(entry, today),
    }));
}
