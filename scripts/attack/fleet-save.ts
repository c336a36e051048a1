// One fleet user saves the largest fleet while a colleague works (issue 33, point 4): the real
// service and proxy on loopback, the proxy watched by an event-loop probe
// (scripts/load/event-loop-probe.ts, loaded only here). A signed-in fleet user saves a fleet of
// 100,000 vehicles with eight columns of their own (about 23 MB of JSON; 20,000 with --quick)
// while a second signed-in user runs compliance checks one after another. Measured: the
// proxy's longest event-loop delay during the save (monitorEventLoopDelay), the colleague's
// check latency, and how much the proxy's SQLite store grew. Before the fix the save held the
// loop for up to 13 s and each added about 54 MB. Bounded: one save, and checks only while it
// runs (at most 5,000).
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { CLIENT_HEADER, FLEET_PATHS } from "@vics/shared";
import type { Child } from "../load/children.ts";
import { percentile } from "../../bench/percentile.ts";
import { signedInCookie, startServers } from "../load/stack.ts";

export const name = "fleet-save";

/** The proxy's event loop may stall at most this long during the save. */
const MAX_DELAY_BOUND_MS = 100;
const COLUMNS = [
  "Fleet no",
  "Driver",
  "Depot",
  "Make",
  "Model",
  "Colour",
  "Cost centre",
  "Notes",
];
const LETTERS = "ABCDEFGHJKLMNOPRSTUVWXYZ";

/** A valid current-style plate per index: AB12 CDE with the letters counting up. */
const plate = (i: number) =>
  `${LETTERS[i % 24]}${LETTERS[Math.floor(i / 24) % 24]}${String(10 + (Math.floor(i / 576) % 80)).padStart(2, "0")}${LETTERS[Math.floor(i / 46_080) % 24]}XY`;

function fleetBody(vehicles: number): string {
  return JSON.stringify({
    name: "Everything",
    columns: COLUMNS,
    vehicles: Array.from({ length: vehicles }, (_, i) => ({
      registration: plate(i),
      cells: COLUMNS.map((column) => `${column} of vehicle ${i}`),
    })),
  });
}

const ROOT = resolve(import.meta.dirname, "../..");
const PROBE = pathToFileURL(
  join(ROOT, "scripts/load/event-loop-probe.ts"),
).href;

interface Delays {
  maxMs: number;
  p99Ms: number;
  meanMs: number;
  samples: number;
}

/** The probe's delays since it was last asked. */
async function delays(proxy: Child, probeDir: string): Promise<Delays> {
  const file = join(probeDir, `${proxy.process.pid}.json`);
  rmSync(file, { force: true });
  proxy.process.kill("SIGUSR2");
  for (let tries = 0; !existsSync(file); tries++) {
    if (tries === 600) throw new Error("no event-loop report from the proxy");
    await new Promise((done) => setTimeout(done, 50));
  }
  return JSON.parse(readFileSync(file, "utf8")) as Delays;
}

const storeBytes = (path: string) =>
  ["", "-wal"].map((suffix) =>
    existsSync(path + suffix) ? statSync(path + suffix).size : 0,
  );
const mb = (bytes: number) => (bytes / 1e6).toFixed(1);

export async function run({ quick }: { quick: boolean }) {
  const vehicles = quick ? 20_000 : 100_000;
  const dataDir = mkdtempSync(join(tmpdir(), "vics-attack-fleet-"));
  const probeDir = mkdtempSync(join(tmpdir(), "vics-attack-probe-"));
  try {
    const { proxy, proxyDatabasePath } = await startServers({
      dataDir,
      serviceEnv: { LOG_LEVEL: "warn" },
      proxyEnv: {
        LOG_LEVEL: "warn",
        NODE_OPTIONS: `--import=${PROBE}`,
        EVENT_LOOP_PROBE_DIR: probeDir,
      },
    });
    const saver = await signedInCookie(`${proxy.url}/`, proxyDatabasePath);
    const colleague = await signedInCookie(`${proxy.url}/`, proxyDatabasePath);
    const check = async () => {
      const started = performance.now();
      const response = await fetch(`${proxy.url}/api/v1/compliance/AB12CDE`, {
        headers: { Cookie: colleague, [CLIENT_HEADER]: "web" },
      });
      await response.arrayBuffer();
      if (response.status !== 200)
        throw new Error(`the colleague's check answered ${response.status}`);
      return performance.now() - started;
    };
    for (let i = 0; i < 20; i++) await check();
    // The same checks with no save, for how long the loop stalls on this machine anyway.
    await delays(proxy, probeDir);
    const restEnds = performance.now() + (quick ? 2_000 : 5_000);
    const atRest: number[] = [];
    while (performance.now() < restEnds) atRest.push(await check());
    const rest = await delays(proxy, probeDir);

    const body = fleetBody(vehicles);
    const [fileBefore, walBefore] = storeBytes(proxyDatabasePath);
    await delays(proxy, probeDir);
    let saving = true;
    const started = performance.now();
    const save = fetch(`${proxy.url}${FLEET_PATHS.fleets}`, {
      method: "POST",
      headers: {
        Cookie: saver,
        [CLIENT_HEADER]: "web",
        "Content-Type": "application/json",
      },
      body,
    }).then(async (response) => {
      const answer = (await response.json()) as {
        vehicleCount?: number;
        detail?: string;
      };
      saving = false;
      return {
        status: response.status,
        answer,
        ms: performance.now() - started,
      };
    });
    const latencies: number[] = [];
    while (saving && latencies.length < 5_000) latencies.push(await check());
    const saved = await save;
    const during = await delays(proxy, probeDir);
    const [fileAfter, walAfter] = storeBytes(proxyDatabasePath);

    const sorted = [...latencies].sort((a, b) => a - b);
    const ok =
      saved.status === 201 &&
      saved.answer.vehicleCount === vehicles &&
      during.maxMs < MAX_DELAY_BOUND_MS;
    return {
      ok,
      lines: [
        `A fleet of ${vehicles.toLocaleString("en-GB")} vehicles (${mb(Buffer.byteLength(body))} MB of JSON) saved while a colleague runs checks:`,
        `  save: ${saved.status}${saved.answer.detail ? ` (${saved.answer.detail})` : ""} in ${(saved.ms / 1000).toFixed(2)} s`,
        `  proxy event loop at rest (the same checks, ${quick ? 2 : 5} s, no save): longest delay ${rest.maxMs} ms, p99 ${rest.p99Ms} ms; checks p99 ${percentile(
          [...atRest].sort((a, b) => a - b),
          99,
        ).toFixed(1)} ms`,
        `  proxy event loop during the save: longest delay ${during.maxMs} ms, p99 ${during.p99Ms} ms, mean ${during.meanMs} ms; bound ${MAX_DELAY_BOUND_MS} ms`,
        `  colleague's checks during the save: n=${sorted.length}  p50 ${percentile(sorted, 50).toFixed(1)} ms  p99 ${percentile(sorted, 99).toFixed(1)} ms  max ${(sorted.at(-1) ?? NaN).toFixed(1)} ms`,
        `  store grew ${mb(fileAfter! + walAfter! - fileBefore! - walBefore!)} MB (file ${mb(fileBefore!)} -> ${mb(fileAfter!)} MB, WAL ${mb(walBefore!)} -> ${mb(walAfter!)} MB)`,
      ],
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(probeDir, { recursive: true, force: true });
  }
}
