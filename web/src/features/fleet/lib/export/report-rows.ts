// The printable report's table: the rows that need the manager, worst first, each with the
// user's own columns (as many as fit an A4 page) and the reason in words.
import { formatRegistration } from "@vics/shared";
import { formatDate } from "../../../../lib/dates.ts";
import type { FleetRow, VehicleResult } from "../fleet-types.ts";
import {
  complianceWords,
  dueSoonWords,
  outcomeDetail,
  sornWords,
} from "../result-words.ts";
import {
  buildResultRows,
  needsAction,
  type ResultRow,
} from "../results-view.ts";
import { actionRank } from "../results-sort.ts";
import { OUTCOME_LABELS } from "@vics/fleet";
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

/**
 * The reason in words, from the same words the results show (outcome detail, compliance, SORN,
 * what falls due), so the report and the page never disagree.
 */
function reason(entry: ResultRow, today: string): string {
  const { outcome } = entry;
  const parts: string[] = [];
  const detail = outcomeDetail(entry, today);
  if (outcome === "not-found")
    parts.push(
      "No vehicle found with this registration: check it against the V5C",
    );
  else if (outcome === "not-checked")
    parts.push(`Not checked: ${detail}. Run the check again`);
  else if (outcome === "not-insured")
    parts.push(detail || "No insurance found for this vehicle");
  else if (outcome === "not-yet-on-record")
    parts.push(`${detail}. Check its certificate of insurance`);
  // "Cover ends in 10 days" comes with the other dates falling due, below.
  else if (detail && outcome !== "expiring") parts.push(detail);
  if (entry.compliant === false) parts.push(complianceWords(entry));
  const sorn = sornWords(entry);
  if (sorn) parts.push(sorn);
  if (entry.complianceNotChecked)
    parts.push("Compliance not checked: run the check again");
  for (const due of entry.dueSoon) {
    parts.push(
      `${dueSoonWords(due.kind, due.daysLeft)}, on ${formatDate(due.date)}`,
    );
  }
  return parts.join(". ");
}

export function reportColumns(run: ExportRun): string[] {
  return run.extraColumns.slice(0, REPORT_USER_COLUMNS).map(userColumnName);
}

function needsManager(entry: ResultRow): boolean {
  if (entry.outcome === "excluded" || entry.outcome === "pending") return false;
  return needsAction(entry);
}

export function reportRows(
  rows: readonly FleetRow[],
  results: ReadonlyMap<string, VehicleResult>,
  today: string,
): ReportRow[] {
  return buildResultRows(rows, results, today)
    .filter(needsManager)
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
