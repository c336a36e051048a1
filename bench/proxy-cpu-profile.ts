// Where the proxy's CPU goes in a signed-in check, part by part (profile-split.ts), beside its
// floor's: the real proxy process (proxy/src/index.ts), then the careful BFF with sessions
// (bench/floors/), each under V8's sampling CPU profiler (`--cpu-prof`), in front of the real
// service on a small fleet, loaded with signed-in insurance checks as the bench's cost rounds
// load them. Only the samples of the measured load count, after a warm-up; each
// part's µs is per check. The profile holds the main thread only: the process's CPU from /proc
// is printed beside it, the difference being V8's and libuv's other threads.
// Run: `scripts/node24 node bench/proxy-cpu-profile.ts [seconds] [keep-prefix]` (15 s each unless
// told; the profiles are kept as <keep-prefix>-proxy.cpuprofile and -bff.cpuprofile when asked).
// The profiler's own sampling costs a few per cent; compare parts within one run.
import {
  copyFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  CLIENT_HEADER,
  HEALTH_PATH,
  PLAN_LIMITS,
  PROXY_PREFIX,
  paths,
} from "@vics/shared";
import { fleetRegistrations } from "../scripts/load/fleet-sample.ts";
import { startServer } from "../scripts/load/stack.ts";
import { CHECKS_FLEET_SIZE, CHECKS_SAMPLE } from "./checks.ts";
import { cpuSeconds } from "./cpu.ts";
import { loadScenario, randomPick } from "./load.ts";
import { startCarefulBff } from "./floors/careful-bff.ts";
import {
  FLOOR_PARTS,
  monotonicUs,
  profilerEnv,
  PROXY_PARTS,
  splitProfile,
  type CpuProfile,
} from "./profile-split.ts";
import { seedDatabase } from "./seed.ts";
import { createKey, startProxy } from "./servers.ts";

interface ProfiledParts {
  checks: number;
  /** The server's CPU a check from /proc over the same load (all its threads). */
  processCpuUs: number;
  /** Each part's main-thread µs a check. */
  partsUs: Record<string, number>;
}

export type Profiled = "proxy" | "bff_sessions";

export interface ProfileRun {
  dir: string;
  serviceUrl: string;
  databasePath: string;
  sample: readonly string[];
  seconds: number;
  keepPrefix?: string;
}

/**
 * Starts `name` in front of the run's service, signed in, with `extraEnv` added (a profiler's
 * NODE_OPTIONS): its cookie comes back with it.
 */
export async function startSignedInServer(
  name: Profiled,
  run: ProfileRun,
  extraEnv: Record<string, string>,
) {
  const key = createKey(run.databasePath, `profile-${name}`);
  if (name === "proxy")
    return startProxy(
      run.serviceUrl,
      key,
      join(run.dir, "proxy.sqlite"),
      "proxy/src/index.ts",
      extraEnv,
    );
  const bff = await startCarefulBff({
    upstreamUrl: run.serviceUrl,
    key,
    sessions: { databasePath: join(run.dir, "bff-sessions.sqlite") },
    extraEnv,
  });
  return { ...bff, cookie: bff.cookie ?? "" };
}

/**
 * Signed-in insurance checks on `server`, over the run's sample: a warm-up of 8 s first, then
 * the measured load (what the returned function runs), each within 40% of a key's minute.
 */
export async function warmedUp(
  name: Profiled,
  server: { url: string; cookie: string },
  run: ProfileRun,
) {
  const pick = randomPick(run.sample);
  const options = {
    url: server.url,
    headers: { [CLIENT_HEADER]: "bench", Cookie: server.cookie },
    path: () => PROXY_PREFIX + paths.insurance(pick()),
  };
  const budget = Math.floor(PLAN_LIMITS.internal * 0.4);
  await loadScenario(`${name} warm-up`, options, {
    warmUpSeconds: 1,
    seconds: 8,
    maxRequests: budget,
  });
  return () =>
    loadScenario(name, options, {
      warmUpSeconds: 1,
      seconds: run.seconds,
      maxRequests: budget,
    });
}

async function profileServer(
  name: Profiled,
  run: ProfileRun,
): Promise<ProfiledParts> {
  const profileDir = join(run.dir, `profile-${name}`);
  const server = await startSignedInServer(name, run, profilerEnv(profileDir));
  let window: {
    fromUs: number;
    toUs: number;
    checks: number;
    cpuUs: number;
  };
  try {
    const measure = await warmedUp(name, server, run);
    const cpuBefore = cpuSeconds(server.process.pid);
    const fromUs = monotonicUs();
    const measured = await measure();
    const toUs = monotonicUs();
    const cpuAfter = cpuSeconds(server.process.pid);
    const checks = measured.requests + measured.warmUp.requests;
    const cpuUs =
      cpuBefore === undefined || cpuAfter === undefined
        ? NaN
        : ((cpuAfter - cpuBefore) * 1e6) / checks;
    window = { fromUs, toUs, checks, cpuUs };
  } finally {
    // The profile is written as the process exits.
    await server.stop();
  }
  const [file] = readdirSync(profileDir).filter((file) =>
    file.endsWith(".cpuprofile"),
  );
  if (!file) throw new Error(`${name} wrote no CPU profile`);
  if (run.keepPrefix)
    copyFileSync(
      join(profileDir, file),
      `${run.keepPrefix}-${name}.cpuprofile`,
    );
  const profile = JSON.parse(
    readFileSync(join(profileDir, file), "utf8"),
  ) as CpuProfile;
  const split = splitProfile(
    profile,
    name === "proxy" ? PROXY_PARTS : FLOOR_PARTS,
    window,
  );
  return {
    checks: window.checks,
    processCpuUs: window.cpuUs,
    partsUs: Object.fromEntries(
      Object.entries(split).map(([part, us]) => [part, us / window.checks]),
    ),
  };
}

/**
 * `measure` run for the proxy, then for its floor, each in front of one real service on the
 * checks section's fleet and sample (checks.ts), so their figures and its ratios are taken over
 * the same rows; the folder, the fleet and the service are gone once both are measured.
 */
export async function eachSignedInServer<T>(
  folderPrefix: string,
  seconds: number,
  measure: (name: Profiled, run: ProfileRun) => Promise<T>,
  keepPrefix?: string,
): Promise<Record<Profiled, T>> {
  const dir = mkdtempSync(join(tmpdir(), folderPrefix));
  try {
    seedDatabase(dir, CHECKS_FLEET_SIZE);
    const databasePath = join(dir, "vics.sqlite");
    const service = await startServer("service/src/index.ts", HEALTH_PATH, {
      DATABASE_PATH: databasePath,
    });
    try {
      const run: ProfileRun = {
        dir,
        serviceUrl: service.url,
        databasePath,
        sample: fleetRegistrations(dir, CHECKS_SAMPLE),
        seconds,
        keepPrefix,
      };
      return {
        proxy: await measure("proxy", run),
        bff_sessions: await measure("bff_sessions", run),
      };
    } finally {
      await service.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The proxy's split, then its floor's, over the same service and fleet. */
export function profileSignedInChecks(
  seconds = 15,
  /** Where to keep the profiles, for a look in Chrome's DevTools; not kept unless told. */
  keepPrefix?: string,
): Promise<Record<Profiled, ProfiledParts>> {
  return eachSignedInServer(
    "vics-proxy-profile-",
    seconds,
    profileServer,
    keepPrefix,
  );
}

/** The two splits as a markdown table, parts by the proxy's µs. */
export function splitTable({
  proxy,
  bff_sessions: floor,
}: Record<Profiled, ProfiledParts>): string {
  const busy = (parts: ProfiledParts) =>
    Object.entries(parts.partsUs).filter(([part]) => part !== "idle");
  const total = (parts: ProfiledParts) =>
    busy(parts).reduce((sum, [, us]) => sum + us, 0);
  const names = [
    ...new Set([...busy(proxy), ...busy(floor)].map(([part]) => part)),
  ].sort((a, b) => (proxy.partsUs[b] ?? 0) - (proxy.partsUs[a] ?? 0));
  const us = (value: number | undefined) => (value ?? 0).toFixed(1);
  return [
    "| part | proxy µs a check | floor µs a check | proxy − floor |",
    "| --- | ---: | ---: | ---: |",
    ...names.map(
      (part) =>
        `| ${part} | ${us(proxy.partsUs[part])} | ${us(floor.partsUs[part])} | ${us((proxy.partsUs[part] ?? 0) - (floor.partsUs[part] ?? 0))} |`,
    ),
    `| main thread, all parts | ${us(total(proxy))} | ${us(total(floor))} | ${us(total(proxy) - total(floor))} |`,
    `| process CPU (/proc, all threads) | ${us(proxy.processCpuUs)} | ${us(floor.processCpuUs)} | ${us(proxy.processCpuUs - floor.processCpuUs)} |`,
  ].join("\n");
}

if (import.meta.main) {
  const profiled = await profileSignedInChecks(
    Number(process.argv[2] ?? 15),
    process.argv[3],
  );
  console.log(
    `${profiled.proxy.checks.toLocaleString("en-GB")} checks through the proxy, ${profiled.bff_sessions.checks.toLocaleString("en-GB")} through its floor. Main-thread samples count wall time (a wait in a system call, a preempted thread), so parts are compared within a column and across the two; /proc's line is the CPU.`,
  );
  console.log(splitTable(profiled));
}
