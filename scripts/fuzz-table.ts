// The table `npm run fuzz` prints: per property, how many cases it ran, how long they took,
// and what the answers were, most frequent first.
import type { FuzzReport } from "@vics/shared/testing/fuzz";

const MAX_OUTCOMES = 4;

function outcomes(report: FuzzReport): string {
  const entries = Object.entries(report.outcomes).sort(([, a], [, b]) => b - a);
  const shown = entries
    .slice(0, MAX_OUTCOMES)
    .map(([outcome, count]) => `${outcome} ×${count.toLocaleString("en-GB")}`);
  if (entries.length > MAX_OUTCOMES)
    shown.push(`${entries.length - MAX_OUTCOMES} more kinds`);
  return shown.join("; ");
}

function verdict(report: FuzzReport): string {
  if (report.failure) return "FAILED";
  if (report.interrupted) return "passed (cut short by the time limit)";
  return "passed";
}

export function fuzzTable(reports: readonly FuzzReport[]): string {
  const rows = [...reports]
    .sort((a, b) => a.property.localeCompare(b.property))
    .map(
      (report) =>
        `| ${report.property} | ${report.cases.toLocaleString("en-GB")} | ${(
          report.durationMs / 1000
        ).toFixed(
          1,
        )} s | ${verdict(report)} | ${outcomes(report).replaceAll("|", "\\|")} | ${report.seed} |`,
    );
  return [
    "| Property | Cases | Time | Result | Answers | Seed |",
    "| --- | --: | --: | --- | --- | --: |",
    ...rows,
  ].join("\n");
}
