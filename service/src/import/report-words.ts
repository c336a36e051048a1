// What `scripts/import` prints: an import's outcome and counts, a few examples of each
// change, and where the reject file is; and the history as a table.
import type {
  ImportCounts,
  ImportExamples,
  ImportRecord,
} from "../store/import-store.ts";
import type { ImportReport } from "./run-import.ts";

const n = (value: number) => value.toLocaleString("en-GB");

function countLine(counts: ImportCounts, verb: "did" | "would"): string {
  const [add, change, remove] =
    verb === "did"
      ? ["added", "changed", "removed"]
      : ["add", "change", "remove"];
  return `${n(counts.rows)} rows read: ${n(counts.added)} ${verb === "did" ? add : `would ${add}`}, ${n(counts.changed)} ${change}, ${n(counts.unchanged)} unchanged, ${n(counts.removed)} ${remove}, ${n(counts.rejected)} refused.`;
}

function exampleLines(
  examples: ImportExamples,
  counts: ImportCounts,
): string[] {
  const lines: string[] = [];
  const add = (label: string, shown: string[], total: number) => {
    if (shown.length === 0) return;
    const more =
      total > shown.length ? ` and ${n(total - shown.length)} more` : "";
    lines.push(`  ${label}: ${shown.join(", ")}${more}`);
  };
  add("Added", examples.added, counts.added);
  add("Changed", examples.changed, counts.changed);
  add("Removed", examples.removed, counts.removed);
  // Counted as unchanged: a live register's fact was fetched after the file's --as-of.
  add(
    "Kept, a register's fact is newer than the file's",
    examples.kept,
    examples.keptCount,
  );
  return lines;
}

/** The report, and the exit code: 1 when the file was refused. */
export function reportWords(
  report: ImportReport,
  what: { kind: string; file: string },
): { text: string; code: number } {
  const about = `${what.file} (${what.kind})`;
  if (report.outcome === "already-imported")
    return {
      text: `Nothing to do: ${about} was imported on ${report.earlier.finishedAt} (import ${report.earlier.id}), and has not changed since.`,
      code: 0,
    };
  const lines: string[] = [];
  if (report.outcome === "applied")
    lines.push(
      `Imported ${about} as import ${report.importId}.`,
      `  ${countLine(report.counts, "did")}`,
    );
  if (report.outcome === "dry-run")
    lines.push(
      `Dry run of ${about}: nothing was changed.`,
      `  ${countLine(report.counts, "would")}`,
    );
  if (report.outcome === "refused")
    lines.push(`Refused ${about}: ${report.reason ?? ""}`);
  lines.push(...exampleLines(report.examples, report.counts));
  if (report.ignoredColumns.length > 0)
    lines.push(`  Columns not imported: ${report.ignoredColumns.join(", ")}.`);
  if (report.rejectsPath)
    lines.push(
      `  The refused rows, with their reasons, are in ${report.rejectsPath}.`,
    );
  return { text: lines.join("\n"), code: report.outcome === "refused" ? 1 : 0 };
}

const HISTORY_HEADER = [
  "id",
  "finished (UTC)",
  "kind",
  "mode",
  "file",
  "sha256",
  "outcome",
  "rows",
  "added",
  "changed",
  "unchanged",
  "removed",
  "refused",
  "run by",
];

/** The imports, newest first, as an aligned table. */
export function historyTable(records: readonly ImportRecord[]): string {
  if (records.length === 0) return "No imports yet.";
  const rows = records.map((record) => [
    String(record.id),
    record.finishedAt.slice(0, 19).replace("T", " "),
    record.kind,
    record.mode,
    record.file.name,
    record.file.sha256.slice(0, 12),
    record.outcome,
    ...[
      record.counts.rows,
      record.counts.added,
      record.counts.changed,
      record.counts.unchanged,
      record.counts.removed,
      record.counts.rejected,
    ].map(n),
    record.runBy,
  ]);
  const table = [HISTORY_HEADER, ...rows];
  const widths = HISTORY_HEADER.map((_, column) =>
    Math.max(...table.map((row) => (row[column] ?? "").length)),
  );
  return table
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}
