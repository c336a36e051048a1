// `npm run fuzz`: every property-based test of the workspaces (the *fuzz.test.ts files), at
// 100,000 cases per property instead of the test suite's 1,000, then a table of what each
// property tried and what the answers were. `npm run fuzz -- --runs 5000` for a shorter run;
// FUZZ_SEED replays one (each report names its seed).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { FuzzReport } from "@vics/shared/testing/fuzz";
import { fuzzTable } from "./fuzz-table.ts";

const ROOT = resolve(import.meta.dirname, "..");
const WORKSPACES = ["shared", "fleet", "service", "proxy", "web"];

const { values } = parseArgs({
  options: { runs: { type: "string", default: "100000" } },
});
const runs = Number(values.runs);
if (!Number.isSafeInteger(runs) || runs <= 0) {
  console.error(
    `fuzz: --runs must be a positive whole number, not "${values.runs}"`,
  );
  process.exit(2);
}

const reportDir = mkdtempSync(join(tmpdir(), "vics-fuzz-"));
const failed: string[] = [];
const started = performance.now();
try {
  for (const workspace of WORKSPACES) {
    console.log(
      `\nfuzz: ${workspace}, ${runs.toLocaleString("en-GB")} cases per property`,
    );
    const result = spawnSync(
      join(ROOT, "node_modules/.bin/vitest"),
      ["run", "fuzz.test", "--reporter", "dot"],
      {
        cwd: join(ROOT, workspace),
        stdio: "inherit",
        env: {
          ...process.env,
          FUZZ_RUNS: String(runs),
          FUZZ_REPORT_DIR: reportDir,
        },
      },
    );
    if (result.status !== 0) failed.push(workspace);
  }

  const reports = readdirSync(reportDir)
    .filter((name) => name.endsWith(".json"))
    .map(
      (name) =>
        JSON.parse(readFileSync(join(reportDir, name), "utf8")) as FuzzReport,
    );
  console.log(`\n${fuzzTable(reports)}`);
  const minutes = (performance.now() - started) / 60_000;
  console.log(
    `\n${reports.length} properties, ${reports
      .reduce((sum, report) => sum + report.cases, 0)
      .toLocaleString("en-GB")} cases in ${minutes.toFixed(1)} min.`,
  );
} finally {
  rmSync(reportDir, { recursive: true, force: true });
}
if (failed.length > 0) {
  console.error(
    `fuzz: a property failed in ${failed.join(", ")} (its seed is above)`,
  );
  process.exit(1);
}
