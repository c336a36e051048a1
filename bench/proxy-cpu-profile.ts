// Where the proxy's CPU goes in a signed-in check, part by part (profile-split.ts): the real
// proxy process (proxy/src/index.ts) under V8's sampling CPU profiler (`--cpu-prof`), in front
// of the real service on a small fleet, loaded with signed-in insurance checks as the bench's
// cost rounds load it. Only the samples of the measured load count, after a warm-up; each
// part's µs is per check. The profile holds the main thread only: the process's CPU from /proc
// is printed beside it, the difference being V8's and libuv's other threads.
// Run: `scripts/node24 node bench/proxy-cpu-profile.ts [seconds] [keep.cpuprofile]` (15 s unless
// told; the profile is kept only when a path is given).
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
import { cpuSeconds } from "./cpu.ts";
import { loadScenario } from "./load.ts";
import { PROXY_PARTS, splitProfile, type CpuProfile } from "./profile-split.ts";
import { seedDatabase } from "./seed.ts";
import { createKey, startProxy } from "./servers.ts";

/** µs between samples: fine enough for parts of a few µs over thousands of checks. */
const SAMPLING_INTERVAL_US = 250;

export interface ProfiledParts {
  checks: number;
  /** The proxy's CPU a check from /proc over the same load (all its threads). */
  processCpuUs: number;
  /** Each part's main-thread µs a check. */
  partsUs: Record<string, number>;
}

/** The clock V8's profile timestamps use (the monotonic clock), in µs. */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

export async function profileSignedInChecks(
  seconds = 15,
  /** Where to keep the profile, for a look in Chrome's DevTools; not kept unless told. */
  keepAt?: string,
): Promise<ProfiledParts> {
  const dir = mkdtempSync(join(tmpdir(), "vics-proxy-profile-"));
  const profileDir = join(dir, "profile");
  try {
    seedDatabase(dir, 20_000);
    const databasePath = join(dir, "vics.sqlite");
    const service = await startServer("service/src/index.ts", HEALTH_PATH, {
      DATABASE_PATH: databasePath,
    });
    const sample = fleetRegistrations(dir, 5_000);
    const proxy = await startProxy(
      service.url,
      createKey(databasePath, "profile"),
      join(dir, "proxy.sqlite"),
      "proxy/src/index.ts",
      {
        NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profileDir} --cpu-prof-interval=${SAMPLING_INTERVAL_US}`,
      },
    );
    let window: {
      fromUs: number;
      toUs: number;
      checks: number;
      cpuBefore: number | undefined;
      cpuAfter: number | undefined;
    };
    try {
      const options = {
        url: proxy.url,
        headers: { [CLIENT_HEADER]: "bench", Cookie: proxy.cookie },
        path: () =>
          PROXY_PREFIX +
          paths.insurance(sample[Math.floor(Math.random() * sample.length)]!),
      };
      const budget = Math.floor(PLAN_LIMITS.internal * 0.4);
      await loadScenario("warm-up", options, {
        warmUpSeconds: 1,
        seconds: 8,
        maxRequests: budget,
      });
      const cpuBefore = cpuSeconds(proxy.process.pid);
      const fromUs = monotonicUs();
      const run = await loadScenario("profiled", options, {
        warmUpSeconds: 1,
        seconds,
        maxRequests: budget,
      });
      const toUs = monotonicUs();
      const cpuAfter = cpuSeconds(proxy.process.pid);
      const checks = run.requests + run.warmUp.requests;
      window = { fromUs, toUs, checks, cpuBefore, cpuAfter };
    } finally {
      // The profile is written as the process exits.
      await proxy.stop();
      await service.stop();
    }
    const [file] = readdirSync(profileDir).filter((name) =>
      name.endsWith(".cpuprofile"),
    );
    if (!file) throw new Error("the proxy wrote no CPU profile");
    if (keepAt) copyFileSync(join(profileDir, file), keepAt);
    const profile = JSON.parse(
      readFileSync(join(profileDir, file), "utf8"),
    ) as CpuProfile;
    const split = splitProfile(profile, PROXY_PARTS, window);
    const partsUs = Object.fromEntries(
      Object.entries(split).map(([part, us]) => [part, us / window.checks]),
    );
    return {
      checks: window.checks,
      processCpuUs:
        window.cpuBefore === undefined || window.cpuAfter === undefined
          ? NaN
          : ((window.cpuAfter - window.cpuBefore) * 1e6) / window.checks,
      partsUs,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const { checks, processCpuUs, partsUs } = await profileSignedInChecks(
    Number(process.argv[2] ?? 15),
    process.argv[3],
  );
  console.log(
    `${checks.toLocaleString("en-GB")} signed-in checks; the proxy's CPU ${processCpuUs.toFixed(0)} µs a check (/proc, all threads)`,
  );
  const { idle, ...busy } = partsUs;
  const total = Object.values(busy).reduce((sum, us) => sum + us, 0);
  console.log(
    `| part | µs a check (main thread) | share |\n| --- | ---: | ---: |`,
  );
  for (const [part, us] of Object.entries(busy).sort(([, a], [, b]) => b - a))
    console.log(
      `| ${part} | ${us.toFixed(1)} | ${((us / total) * 100).toFixed(0)}% |`,
    );
  console.log(
    `| total | ${total.toFixed(1)} | |\n(idle ${(idle ?? 0).toFixed(1)} µs a check)`,
  );
}
