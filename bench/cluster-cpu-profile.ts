// Where the cluster's Node CPU goes in a signed-in check, beside the single-process stack's:
// first one service on SQLite and one proxy in front of it (the checks section's fleet), then
// the cluster of `npm run cluster` (3 services and 2 proxies on PostgreSQL and Redis behind
// nginx's https), every Node process under V8's sampling CPU profiler (`--cpu-prof`), each
// loaded with signed-in insurance checks after a 5 s warm-up. Each role's self time (its
// processes summed) is split by place: V8's own entries (GC, native code), each package,
// Node's modules, our folders (profile-split.ts, `placeOf`), over the measured load alone, per
// check, beside the role's CPU per check from /proc over the same window.
// Run: `scripts/node24 node bench/cluster-cpu-profile.ts [--seconds 15] [--services 3]
// [--proxies 2] [--keep DIR]` (the measured seconds; the cluster's replicas of each role; the
// profiles kept in DIR/single and DIR/cluster, for a look in Chrome's DevTools).
// The profiler makes each process dearer (1.5-1.8 times its CPU a check unprofiled, on
// 30 November 2026): read the places as shares of each process, and take µs from `npm run bench`.
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { parseArgs } from "node:util";
import { join } from "node:path";
import {
  CLIENT_HEADER,
  HEALTH_PATH,
  PLAN_LIMITS,
  PROXY_PREFIX,
  paths,
} from "@vics/shared";
import { DEFAULT_USER_LIMITS } from "../proxy/src/team/limits/user-limits.ts";
import { fleetRegistrations } from "../scripts/load/fleet-sample.ts";
import { startServer } from "../scripts/load/stack.ts";
import { startCluster } from "../scripts/cluster/start-cluster.ts";
import { clusterMissing, signedInChecks } from "./cluster.ts";
import { loadScenario, randomPick, type LoadOptions } from "./load.ts";
import { CHECKS_FLEET_SIZE, CHECKS_SAMPLE } from "./checks.ts";
import {
  monotonicUs,
  profilerEnv,
  selfTimeByPlace,
  type CpuProfile,
} from "./profile-split.ts";
import { seedDatabase } from "./seed.ts";
import { createKey, startProxy } from "./servers.ts";

type Role = "service" | "proxy";

export interface RoleProfile {
  processes: number;
  /** The role's processes' CPU a check from /proc, all threads. */
  processCpuUs: number;
  /** Main-thread self time a check, by place. */
  placesUs: Record<string, number>;
}

/** Each process: its name (a replica's, e.g. "service-3101"), role and pid. */
interface Profiled {
  name: string;
  role: Role;
  pid: number;
}

interface Measured {
  checks: number;
  rps: number;
  roles: Record<Role, RoleProfile>;
}

/**
 * Loads `options` (a warm-up, then `seconds` measured) and returns the measured window on the
 * profiles' clock, with each process's /proc CPU per check over it.
 */
async function measuredLoad(
  options: LoadOptions,
  seconds: number,
  maxRequests: number,
  processes: readonly Profiled[],
) {
  let fromUs = 0;
  let toUs = 0;
  const run = await loadScenario(
    "signed-in checks, profiled",
    options,
    { warmUpSeconds: 5, seconds, maxRequests },
    Object.fromEntries(processes.map(({ name, pid }) => [name, pid])),
    {
      opened: async () => {
        fromUs = monotonicUs();
      },
      closed: async () => {
        toUs = monotonicUs();
      },
    },
  );
  return { run, window: { fromUs, toUs } };
}

/** Reads the profiles the exited `processes` wrote to `profileDir`, summed by role. */
function rolePlaces(
  profileDir: string,
  processes: readonly Profiled[],
  { run, window }: Awaited<ReturnType<typeof measuredLoad>>,
  keepDir: string | undefined,
): Measured {
  const files = readdirSync(profileDir);
  const roles = {} as Record<Role, RoleProfile>;
  for (const { name, role, pid } of processes) {
    // CPU.<date>.<time>.<pid>.<thread>.<sequence>.cpuprofile
    const file = files.find((f) => f.split(".")[3] === String(pid));
    if (!file) throw new Error(`${name} (pid ${pid}) wrote no CPU profile`);
    if (keepDir) {
      mkdirSync(keepDir, { recursive: true });
      copyFileSync(join(profileDir, file), join(keepDir, `${name}.cpuprofile`));
    }
    const profile = JSON.parse(
      readFileSync(join(profileDir, file), "utf8"),
    ) as CpuProfile;
    const sum = (roles[role] ??= {
      processes: 0,
      processCpuUs: 0,
      placesUs: {},
    });
    sum.processes++;
    sum.processCpuUs += run.cpuUsPerRequest[name] ?? NaN;
    for (const [place, us] of Object.entries(selfTimeByPlace(profile, window)))
      sum.placesUs[place] = (sum.placesUs[place] ?? 0) + us / run.requests;
  }
  return { checks: run.requests, rps: run.rps, roles };
}

/** The cluster of `npm run cluster`, every Node replica profiled. */
export async function profileCluster(
  seconds: number,
  keepDir?: string,
  /** The replicas of each role: `npm run cluster`'s 3 and 2 unless told. */
  replicas: { services: number; proxies: number } = { services: 3, proxies: 2 },
): Promise<Measured> {
  const missing = clusterMissing();
  if (missing) throw new Error(`cannot start the cluster: ${missing}`);
  const dataDir = mkdtempSync(join(tmpdir(), "vics-cluster-profile-"));
  const profileDir = join(dataDir, "profiles");
  let cluster: Awaited<ReturnType<typeof startCluster>> | undefined;
  try {
    cluster = await startCluster({
      dataDir,
      httpsPort: 0,
      quiet: true,
      serviceReplicas: replicas.services,
      proxyReplicas: replicas.proxies,
      replicaEnv: profilerEnv(profileDir),
    });
    const checks = await signedInChecks(cluster);
    const processes = [...cluster.services, ...cluster.proxies].map(
      (replica): Profiled => ({
        name: replica.name,
        role: replica.name.startsWith("service") ? "service" : "proxy",
        pid: replica.pid!,
      }),
    );
    const load = await measuredLoad(
      checks,
      seconds,
      // Under one fleet user's limit a minute (50,000 look-ups).
      Math.floor(DEFAULT_USER_LIMITS.fleet * 0.9),
      processes,
    );
    // The profiles are written as the replicas exit.
    await cluster.close();
    cluster = undefined;
    return rolePlaces(
      profileDir,
      processes,
      load,
      keepDir && join(keepDir, "cluster"),
    );
  } finally {
    await cluster?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The single-process stack, both processes profiled: one service on SQLite and one proxy
 * in front of it, on the checks section's fleet (bench/checks.ts), as proxy-cpu-profile.ts.
 */
export async function profileSingleStack(
  seconds: number,
  keepDir?: string,
): Promise<Measured> {
  const dir = mkdtempSync(join(tmpdir(), "vics-single-profile-"));
  const profileDir = join(dir, "profiles");
  const stops: (() => Promise<void>)[] = [];
  try {
    seedDatabase(dir, CHECKS_FLEET_SIZE);
    const databasePath = join(dir, "vics.sqlite");
    const service = await startServer("service/src/index.ts", HEALTH_PATH, {
      DATABASE_PATH: databasePath,
      ...profilerEnv(profileDir),
    });
    stops.push(() => service.stop());
    const proxy = await startProxy(
      service.url,
      createKey(databasePath, "profile-single"),
      join(dir, "proxy.sqlite"),
      "proxy/src/index.ts",
      profilerEnv(profileDir),
    );
    stops.unshift(() => proxy.stop());
    const processes: Profiled[] = [
      { name: "service", role: "service", pid: service.process.pid! },
      { name: "proxy", role: "proxy", pid: proxy.process.pid! },
    ];
    const pick = randomPick(fleetRegistrations(dir, CHECKS_SAMPLE));
    const load = await measuredLoad(
      {
        url: proxy.url,
        headers: { [CLIENT_HEADER]: "bench", Cookie: proxy.cookie },
        path: () => PROXY_PREFIX + paths.insurance(pick()),
      },
      seconds,
      Math.floor(PLAN_LIMITS.internal * 0.4),
      processes,
    );
    for (const stop of stops.splice(0)) await stop();
    return rolePlaces(
      profileDir,
      processes,
      load,
      keepDir && join(keepDir, "single"),
    );
  } finally {
    for (const stop of stops) await stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * One role's places in the single stack and the cluster side by side, µs a check, the largest
 * difference first; the rest summed. Main-thread samples count wall time, so each column's
 * places are also given scaled to its /proc CPU (a process waiting for a core is sampled where
 * it waits), the figure to compare across columns.
 */
export function placesTable(
  role: Role,
  single: RoleProfile,
  cluster: RoleProfile,
  top = 20,
): string {
  const busy = (profile: RoleProfile) =>
    Object.entries(profile.placesUs).filter(([place]) => place !== "(idle)");
  const total = (profile: RoleProfile) =>
    busy(profile).reduce((sum, [, us]) => sum + us, 0);
  // Each place's share of the main thread's samples, times the process's CPU.
  const scaled = (profile: RoleProfile, place: string) =>
    ((profile.placesUs[place] ?? 0) / (total(profile) || 1)) *
    profile.processCpuUs;
  const places = [
    ...new Set([...busy(single), ...busy(cluster)].map(([place]) => place)),
  ].sort(
    (a, b) =>
      scaled(cluster, b) -
      scaled(single, b) -
      (scaled(cluster, a) - scaled(single, a)),
  );
  const shown = places.slice(0, top);
  const rest = (profile: RoleProfile) =>
    places.slice(top).reduce((sum, place) => sum + scaled(profile, place), 0);
  const us = (value: number) => Math.round(value).toLocaleString("en-GB");
  const row = (name: string, a: number, b: number) =>
    `| ${name} | ${us(a)} | ${us(b)} | ${us(b - a)} |`;
  return [
    `| ${role}: place (µs a check, scaled to CPU) | single (${single.processes}) | cluster (${cluster.processes}) | cluster − single |`,
    "| --- | ---: | ---: | ---: |",
    ...shown.map((place) =>
      row(place, scaled(single, place), scaled(cluster, place)),
    ),
    row(
      `${places.length - shown.length} other places`,
      rest(single),
      rest(cluster),
    ),
    row(
      "process CPU (/proc, all threads)",
      single.processCpuUs,
      cluster.processCpuUs,
    ),
    row(
      "main thread's samples, unscaled (wall time)",
      total(single),
      total(cluster),
    ),
  ].join("\n");
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      seconds: { type: "string", default: "15" },
      keep: { type: "string" },
      services: { type: "string", default: "3" },
      proxies: { type: "string", default: "2" },
    },
  });
  const seconds = Number(values.seconds);
  const replicas = {
    services: Number(values.services),
    proxies: Number(values.proxies),
  };
  const single = await profileSingleStack(seconds, values.keep);
  const cluster = await profileCluster(seconds, values.keep, replicas);
  console.log(
    `Signed-in checks: ${single.checks.toLocaleString("en-GB")} through the single stack (${Math.round(single.rps)} a second), ${cluster.checks.toLocaleString("en-GB")} through the cluster's https with ${replicas.services} service and ${replicas.proxies} proxy replicas (${Math.round(cluster.rps)} a second). Each role's processes summed.`,
  );
  for (const role of ["service", "proxy"] as const)
    console.log(
      `\n${placesTable(role, single.roles[role], cluster.roles[role])}`,
    );
}
