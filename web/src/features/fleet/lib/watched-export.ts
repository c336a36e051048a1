// A saved fleet's current status as a table of text for a CSV or Excel file: the registration,
// the team's own columns, then what the re-checks found (status, insurance, MOT, road tax, fines,
// the open alerts in the alerts' own words, when last checked or unknown since) and, with
// "changed since", what moved. Dates are YYYY-MM-DD, so a spreadsheet sorts them (and the Excel
// file types them, by the columns' names); times are UK time. Written by @vics/shared's toCsv or
// the results' toXlsx, which keep any cell from running as a formula.
import { formatRegistration, UK_TIME_ZONE } from "@vics/shared";
import { alertWords } from "./alert-words.ts";
import { changeWords } from "./change-words.ts";
import { userColumnName } from "./export/export-columns.ts";
import { STATUS_LABELS } from "./watched-order.ts";
import type { WatchedEntry } from "./watched-view.ts";

const OUR_COLUMNS = [
  "Registration",
  "Status",
  "Needs action",
  "Insurer",
  "Policy number",
  "Insured until",
  "MOT",
  "MOT expiry",
  "Road tax",
  "Tax due",
  "Outstanding fines",
  "Fines total",
  "Open alerts",
  "Checked at (UK time)",
  "Unknown since (UK time)",
];

const OURS = new Set(OUR_COLUMNS.map((name) => name.toLowerCase()));

/** A team's column named as one of ours ("Status") is "Status (your list)": one name, one column. */
function teamColumnName(name: string): string {
  const named = userColumnName(name);
  return OURS.has(named.trim().toLowerCase()) ? `${named} (your list)` : named;
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
  const [registration, ...ours] = OUR_COLUMNS;
  return [
    registration!,
    ...columns.map(teamColumnName),
    ...ours,
    ...(changedSince ? [`Changes since ${changedSince}`] : []),
  ];
}

function factCells(entry: WatchedEntry): string[] {
  const facts = entry.vehicle.facts;
  const insurance = facts?.insurance;
  const policy = insurance?.status === "insured" ? insurance.policy : undefined;
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
    fines ? `£${(fines.totalPence / 100).toFixed(2)}` : "",
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
