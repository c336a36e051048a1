// A saved fleet's current status as a table of text for a CSV or Excel file: the registration,
// the team's own columns, then what the re-checks found (status, insurance, MOT, road tax, fines,
// the open alerts in the alerts' own words, when last checked or unknown since) and, with
// "changed since", what moved. Dates are YYYY-MM-DD, so a spreadsheet sorts them, and the Excel
// file types them by this file's own column kinds (watchedExportKinds), the fines total as a sum
// of money; times are UK time. Built in the export worker (export/watched-file.ts) and written by
// @vics/shared's toCsv or the results' toXlsx, which keep any cell from running as a formula.
import {
  formatRegistration,
  UK_TIME_ZONE,
  formatPoundsAndPence,
} from "@vics/shared";
import { alertWords } from "./alert-words.ts";
import { changeWords } from "./change-words.ts";
import type { ExportColumnKind } from "./export/export-columns.ts";
import { shownPolicy } from "./export/shown-policy.ts";
import { STATUS_LABELS } from "./watched-order.ts";
import type { WatchedEntry } from "./watched-view.ts";

/** Our columns after the team's, each with how the Excel file types its cells. */
const OUR_KINDS: readonly (readonly [string, ExportColumnKind])[] = [
  ["Status", "text"],
  ["Needs action", "text"],
  ["Insurer", "text"],
  ["Policy number", "text"],
  ["Insured until", "date"],
  ["MOT", "text"],
  ["MOT expiry", "date"],
  ["Road tax", "text"],
  ["Tax due", "date"],
  ["Outstanding fines", "number"],
  ["Fines total", "money"],
  ["Open alerts", "text"],
  ["Checked at (UK time)", "text"],
  ["Unknown since (UK time)", "text"],
];

const REGISTRATION = "Registration";
const OUR_COLUMNS = [REGISTRATION, ...OUR_KINDS.map(([name]) => name)];

const changesColumn = (changedSince: string) => `Changes since ${changedSince}`;

/**
 * A team's column named as one of this file's ("Status") is "Status (your list)": one name, one
 * column. Only this file's own names clash: "Make" stays "Make".
 */
function teamColumnName(name: string, changedSince?: string): string {
  const ours = new Set(
    [
      ...OUR_COLUMNS,
      ...(changedSince ? [changesColumn(changedSince)] : []),
    ].map((column) => column.toLowerCase()),
  );
  return ours.has(name.trim().toLowerCase()) ? `${name} (your list)` : name;
}

const ukTime = new Intl.DateTimeFormat("sv-SE", {
  timeZone: UK_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
});

/** "2026-11-27 06:00", UK time: sorts as text, reads as a time. */
const timeCell = (timestamp: string | null) =>
  timestamp === null ? "" : ukTime.format(new Date(timestamp));

const MOT_WORDS = {
  valid: "Valid",
  expired: "Expired",
  exempt: "Not needed yet",
  none: "None on record",
} as const;

const TAX_WORDS = { taxed: "Taxed", untaxed: "Untaxed", sorn: "SORN" } as const;

export function watchedExportHeader(
  columns: readonly string[],
  changedSince?: string,
): string[] {
  return [
    REGISTRATION,
    ...columns.map((name) => teamColumnName(name, changedSince)),
    ...OUR_KINDS.map(([name]) => name),
    ...(changedSince ? [changesColumn(changedSince)] : []),
  ];
}

/** How the Excel file types each column of watchedExportHeader's, in its order. */
export function watchedExportKinds(
  columns: readonly string[],
  changedSince?: string,
): ExportColumnKind[] {
  return [
    "text",
    ...columns.map((): ExportColumnKind => "user"),
    ...OUR_KINDS.map(([, kind]) => kind),
    ...(changedSince ? ["text" as const] : []),
  ];
}

function factCells(entry: WatchedEntry): string[] {
  const facts = entry.vehicle.facts;
  // Not insured: the policy that ended, so the file says with whom and until when (the Status
  // says it is not in force).
  const policy = shownPolicy(facts?.insurance);
  const fines = facts?.fines;
  return [
    policy?.insurer ?? "",
    policy?.number ?? "",
    policy?.validTo ?? "",
    facts?.mot ? MOT_WORDS[facts.mot.status] : "",
    facts?.mot?.expiry ?? "",
    facts?.tax ? TAX_WORDS[facts.tax.status] : "",
    facts?.tax?.dueDate ?? "",
    fines ? String(fines.count) : "",
    // "£120.00" in the CSV; the Excel file's money column holds it as the number 120, so it sums.
    fines ? formatPoundsAndPence(fines.totalPence) : "",
  ];
}

/** One row per vehicle, in the entries' order; `changedSince` adds what moved. */
export function watchedExportRows(
  entries: readonly WatchedEntry[],
  columns: readonly string[],
  changedSince?: string,
): string[][] {
  return entries.map((entry) => {
    const { vehicle } = entry;
    return [
      formatRegistration(vehicle.registration),
      ...columns.map((_, index) => vehicle.cells[index] ?? ""),
      STATUS_LABELS[entry.status],
      entry.needsAction ? "Yes" : "No",
      ...factCells(entry),
      vehicle.alerts.map(alertWords).join("; "),
      timeCell(vehicle.checkedAt),
      timeCell(vehicle.unknownSince),
      ...(changedSince
        ? [(vehicle.changes ?? []).map(changeWords).join("; ")]
        : []),
    ];
  });
}
