// `npm run bench` (`-- --quick` for shorter load runs, the same figures): the performance
// figures docs/performance.md lists, all in one run on one machine so that their ratios mean
// something.
// Seeds a 1,000,000-vehicle database, starts the stack on it, loads each server beside its
// floor (bench/floors/) in interleaved rounds for its CPU per request (load-scenarios.ts),
// measures the same fleet in PostgreSQL beside it (engines.ts) and the whole cluster on this
// machine (cluster.ts), then hands a fresh proxy to the web figures (bench/web). Prints a markdown table and writes bench/results/latest.json and a dated copy.
// Exits 1 when a scenario failed (an answer not 2xx); a missed target is reported, not an error.
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { fleetRegistrations } from "../scripts/load/fleet-sample.ts";
import { sampleRss } from "../scripts/load/rss.ts";
import { startStack, type Stack } from "../scripts/load/stack.ts";
import {
  buildWebApp,
  builtAt,
  sourceTimes,
  webBuildIsStale,
} from "../scripts/start/web-build.ts";
import { auditSearchFigures } from "./audit-search.ts";
import { storeSizeFigures } from "./store-sizes.ts";
import { pgAuditSearchScenario } from "./audit-search-pg.ts";
import { batchFigures } from "./batch-scenarios.ts";
import { sweepFigures } from "./sweep.ts";
import { checkFigures, inChecksSection } from "./checks.ts";
import { clusterFigures } from "./cluster.ts";
import { engineFigures } from "./engines.ts";
import { importFigures } from "./imports.ts";
import { stopAllChildren } from "../scripts/load/children.ts";
import { loadFigures } from "./load-scenarios.ts";
import { openResources } from "./open-resources.ts";
import { createRecorder } from "./recorder.ts";
import { markdownTable, ratios, serverRows, type Row } from "./report.ts";
import { resultsJson, writeResults } from "./results.ts";
import { signedInScenario } from "./signed-in-check.ts";
import { tracingSection } from "./tracing.ts";
import {
  FULL_SIZES,
  QUICK_SIZES,
  SOURCES_KEYS,
  sourcesFigureValues,
  sourcesFigures,
} from "./sources.ts";
import { BENCH_FLEET_SIZE, seedDatabase } from "./seed.ts";
import { ROOT, createKey, startProxy } from "./servers.ts";
import { webFigures } from "./web/index.ts";

const { values } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    // `--only sources`: that section alone, without the 1,000,000-vehicle stack. `--only
    // checks`: the proxy's CPU per signed-in check beside its floor, on a small fleet. `--only
    // tracing`: what traces cost a signed-in check, off and on at 10%, on small fleets.
    // `--only cluster`: the cluster's figures, every process's CPU per check and what each
    // store was asked, without the single-process stack (so without their ratio). `--only
    // audit`: the audit search on PostgreSQL, ten years in partitions beside one partition.
    only: { type: "string" },
  },
});
const quick = values.quick;
const SECTIONS = ["sources", "checks", "tracing", "cluster", "audit"];
const only = values.only;
if (only !== undefined && !SECTIONS.includes(only)) {
  console.error(`--only takes one of: ${SECTIONS.join(", ")}`);
  process.exit(2);
}
const FLEET_RUN_SIZE = 100_000;
const LOAD_SAMPLE = 10_000;

const recorder = createRecorder();
const { figures, say } = recorder;
let webRows: Row[] = [];
let stack: Stack | undefined;
// PostgreSQL and the cluster, while their scenarios run.
const resources = openResources();
const dataDir = mkdtempSync(join(tmpdir(), "vics-bench-"));
const machine = {
  cores: availableParallelism(),
  memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
};

async function cleanUp(): Promise<void> {
  await stopAllChildren();
  await stack?.stop();
  await resources.closeAll();
  rmSync(dataDir, { recursive: true, force: true });
}

// Ctrl-C mid-run stops every server (PostgreSQL and the cluster too) and removes the
// 1,000,000-vehicle database.
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => void cleanUp().then(() => process.exit(130)));

try {
  say(
    `Bench${quick ? " (quick)" : ""}${only ? ` (${only} only)` : ""}: ${machine.cores} cores, ${machine.memoryGiB} GiB, Node ${process.version}`,
  );
  // The live registers first, on a store of their own, before the stack loads the machine.
  if (only === undefined || only === "sources")
    await recorder.scenario(
      [...SOURCES_KEYS],
      async () => {
        const found = await sourcesFigures(
          mkdtempSync(join(dataDir, "sources-")),
          quick ? QUICK_SIZES : FULL_SIZES,
        );
        Object.assign(figures, sourcesFigureValues(found));
      },
      "the live registers: a fresh check, a bulk check with 10% stale, a refresh of the watched fleet",
    );
  if (only === "checks") await checkFigures({ dataDir, quick }, recorder);
  // `--only cluster`: the cluster's figures alone; its ratio to the single-process stack needs
  // the whole run's proxy and service CPU, so it is left out.
  if (only === "cluster") await clusterFigures({ quick, resources }, recorder);
  // `--only audit`: the audit search on PostgreSQL's partitions beside one partition.
  if (only === "audit") await pgAuditSearchScenario(quick, recorder);
  if (only === undefined || only === "tracing")
    await tracingSection({ dataDir, quick }, recorder);
  if (only === undefined) {
    // The web figures and the proxy's pages need web/dist as the sources are now.
    if (webBuildIsStale(builtAt(ROOT), sourceTimes(ROOT)))
      await buildWebApp(ROOT);
    say(`- seeding ${BENCH_FLEET_SIZE.toLocaleString("en-GB")} vehicles...`);
    figures.seed1m_s = seedDatabase(dataDir);
    say(`  done in ${figures.seed1m_s.toFixed(1)} s`);

    stack = await startStack({ dataDir, plan: "internal" });
    const service = stack;
    const rss = sampleRss({ service: stack.service.pid }, 250);
    const fleet = fleetRegistrations(dataDir, FLEET_RUN_SIZE);
    const sample = fleet.slice(0, LOAD_SAMPLE);
    await loadFigures({ stack, dataDir, sample, quick }, recorder);
    // Beside the proxy's CPU per check under load: what sign-in adds to each, measured alone.
    await signedInScenario(dataDir, sample, recorder);
    await batchFigures({ stack, dataDir, fleet, quick }, recorder);
    // The watched fleets' daily sweep of the same 100,000 vehicles.
    await sweepFigures({ stack, dataDir, fleet }, recorder);
    rss.stop();
    const rssMb = (rss.samples.service ?? []).map(([, mb]) => mb);
    figures.service_rss_mb = rssMb.length > 0 ? Math.max(...rssMb) : null;

    // The same fleet in PostgreSQL, its service measured in rounds with this SQLite one's.
    await engineFigures(
      { stack, dataDir, fleet, sample, quick, resources },
      recorder,
    );
    // The operator's import of 1,000,000 vehicles and their policies, per engine.
    await importFigures({ dataDir, quick, resources }, recorder);
    // Beside proxy_rps: the same signed-in checks through the whole cluster on this machine.
    await clusterFigures({ quick, resources }, recorder);

    await recorder.scenario(
      [
        "audit_search_p50_ms",
        "audit_search_fastest_round_ms",
        "audit_search_slowest_round_ms",
        "audit_seed10m_s",
      ],
      async () => {
        const audit = await auditSearchFigures(dataDir);
        figures.audit_search_p50_ms = audit.p50Ms;
        figures.audit_seed10m_s = audit.seedS;
        [
          figures.audit_search_fastest_round_ms,
          figures.audit_search_slowest_round_ms,
        ] = audit.spreadMs;
      },
      "audit search over 10,000,000 events",
    );

    // The same search on PostgreSQL: ten years in partitions, beside one partition.
    await pgAuditSearchScenario(quick, recorder);

    // What an audit event and a watched vehicle take in the proxy's PostgreSQL (the sizing).
    await storeSizeFigures(quick, recorder);

    // A proxy of their own, with a fresh key: the browser run sends 100,000 rows through it.
    await recorder.scenario(
      [],
      async () => {
        const key = createKey(join(dataDir, "vics.sqlite"), "web");
        const proxy = await startProxy(
          service.serviceUrl,
          key,
          join(dataDir, "proxy-web.sqlite"),
        );
        try {
          const proxyUrl = `${proxy.url}/`;
          const web = await webFigures({
            proxyUrl,
            cookie: proxy.cookie,
            fleet,
            quick,
          });
          Object.assign(figures, web.figures);
          webRows = web.rows;
        } finally {
          await proxy.stop();
        }
      },
      "web figures",
    );
  }
} finally {
  await cleanUp();
}

const date = new Date();
Object.assign(figures, ratios(figures));
const rows = [...serverRows(figures, recorder.notes), ...webRows];
// One section alone: its rows, and its results beside the full run's, not over them.
const inSection = (key: string) =>
  only === "checks" ? inChecksSection(key) : key.startsWith(`${only}_`);
say(
  `\n${markdownTable(only ? rows.filter((row) => inSection(row.figure)) : rows)}\n`,
);
const results = resultsJson(
  only
    ? Object.fromEntries(
        Object.entries(figures).filter(([key]) => inSection(key)),
      )
    : figures,
  { machine, node: process.version, date },
);
const written = writeResults(
  join(ROOT, "bench/results", only ?? ""),
  results,
  date,
);
say(
  `Machine: ${machine.cores} cores, ${machine.memoryGiB} GiB, Node ${process.version}`,
);
say(`Written: ${written.join(", ")}`);
if (recorder.failures.length > 0) {
  console.error(
    `\n${recorder.failures.length} scenario(s) FAILED:\n  - ${recorder.failures.join("\n  - ")}`,
  );
  process.exit(1);
}
process.exit(0);
