// What the proxy allocates for a signed-in check, part by part (allocation-split.ts), beside its
// floor's: the real proxy process and then the careful BFF with sessions (bench/floors/), each in
// front of the real service on the checks section's fleet, loaded with signed-in insurance checks
// over real HTTP, as proxy-cpu-profile.ts loads them for their CPU. Each server runs with an
// inspector on a loopback port; after a warm-up, V8's sampling heap profiler (HeapProfiler over
// the DevTools protocol) counts what the whole process allocates over the measured load, objects
// already collected included, so its bytes are what was allocated, not what is left. Node's HTTP
// server and undici are counted too, which bench/proxy-allocation.ts (the app in process) leaves
// out.
// V8's heap sampler names a sample by the frames on the stack, and an optimised function's
// inlined callees have none of their own: their bytes go to the function they were inlined
// into (the floor's session read shows as its route handler's). `--no-inlining` runs both
// servers with TurboFan's and Maglev's inlining off, so every function keeps its frame: the parts
// are then told apart, at the price of the allocations inlining's escape analysis would have
// saved (compare the totals of the two runs).
// Run: `scripts/node24 node bench/server-allocation.ts [seconds] [--no-inlining]` (10 s each
// unless told).
import { freePort } from "@vics/shared/testing/free-port";
import {
  allocationByPlace,
  splitAllocation,
  type AllocationNode,
} from "./allocation-split.ts";
import {
  openDevtoolsSession,
  type DevtoolsSession,
} from "./devtools-session.ts";
import { FLOOR_PARTS, PROXY_PARTS } from "./profile-split.ts";
import {
  eachSignedInServer,
  startSignedInServer,
  warmedUp,
  type Profiled,
  type ProfileRun,
} from "./proxy-cpu-profile.ts";

/** One sample per 4 kB allocated on average: about 20 a check, light enough under load. */
const SAMPLING_INTERVAL_BYTES = 4096;

interface Allocated {
  checks: number;
  /** Bytes a check by part, and by the place of the allocating function. */
  parts: Record<string, number>;
  places: Record<string, number>;
}

/**
 * V8's options that keep every function's own frame (see above). NODE_OPTIONS refuses V8's
 * flags: they are set through the inspector before the warm-up, so every hot function is
 * optimised under them. V8 takes a flag it does not know without a word; that these took shows
 * in the split (the floor's session read allocates nothing with inlining, its own kB without).
 */
const NO_INLINING = ["--no-turbo-inlining", "--no-maglev-inlining"];

async function allocationOf(
  name: Profiled,
  run: ProfileRun,
  inlining: boolean,
): Promise<Allocated> {
  const inspectorPort = await freePort();
  const server = await startSignedInServer(name, run, {
    NODE_OPTIONS: `--inspect=127.0.0.1:${inspectorPort}`,
  });
  let session: DevtoolsSession | undefined;
  try {
    session = await openDevtoolsSession(inspectorPort);
    if (!inlining) {
      const { exceptionDetails } = await session.post<{
        exceptionDetails?: unknown;
      }>("Runtime.evaluate", {
        expression: `{ const v8 = process.getBuiltinModule("v8"); ${NO_INLINING.map((flag) => `v8.setFlagsFromString(${JSON.stringify(flag)});`).join(" ")} }`,
      });
      if (exceptionDetails)
        throw new Error(`${name}: setting V8's flags threw`);
    }
    const measure = await warmedUp(name, server, run);
    await session.post("HeapProfiler.startSampling", {
      samplingInterval: SAMPLING_INTERVAL_BYTES,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    const measured = await measure();
    const { profile } = await session.post<{
      profile: { head: AllocationNode };
    }>("HeapProfiler.stopSampling");
    const checks = measured.requests + measured.warmUp.requests;
    const perCheck = (bytes: Record<string, number>) =>
      Object.fromEntries(
        Object.entries(bytes).map(([key, total]) => [key, total / checks]),
      );
    return {
      checks,
      parts: perCheck(
        splitAllocation(
          profile.head,
          name === "proxy" ? PROXY_PARTS : FLOOR_PARTS,
        ),
      ),
      places: perCheck(allocationByPlace(profile.head)),
    };
  } finally {
    session?.close();
    await server.stop();
  }
}

/** The proxy's allocation, then its floor's, over the same service and fleet. */
export function allocationOfSignedInChecks(
  seconds = 10,
  { inlining = true }: { inlining?: boolean } = {},
): Promise<Record<Profiled, Allocated>> {
  return eachSignedInServer("vics-server-allocation-", seconds, (name, run) =>
    allocationOf(name, run, inlining),
  );
}

/** Bytes a check as kB, the two servers side by side, the largest gap first; `top` rows. */
export function allocationTable(
  proxy: Record<string, number>,
  floor: Record<string, number>,
  heading: string,
  top = 40,
): string {
  const kB = (bytes: number | undefined) => ((bytes ?? 0) / 1024).toFixed(2);
  const keys = [...new Set([...Object.keys(proxy), ...Object.keys(floor)])];
  const gap = (key: string) => (proxy[key] ?? 0) - (floor[key] ?? 0);
  keys.sort((a, b) => gap(b) - gap(a));
  const total = (bytes: Record<string, number>) =>
    Object.values(bytes).reduce((sum, value) => sum + value, 0);
  const rows = keys
    .slice(0, top)
    .map(
      (key) =>
        `| ${key} | ${kB(proxy[key])} | ${kB(floor[key])} | ${kB(gap(key))} |`,
    );
  const rest = keys.slice(top);
  if (rest.length > 0) {
    const sum = (bytes: Record<string, number>) =>
      rest.reduce((acc, key) => acc + (bytes[key] ?? 0), 0);
    rows.push(
      `| the other ${rest.length} | ${kB(sum(proxy))} | ${kB(sum(floor))} | ${kB(sum(proxy) - sum(floor))} |`,
    );
  }
  return [
    `| ${heading} | Proxy, kB a check | Floor, kB a check | Gap |`,
    "| --- | ---: | ---: | ---: |",
    ...rows,
    `| Total | ${kB(total(proxy))} | ${kB(total(floor))} | ${kB(total(proxy) - total(floor))} |`,
  ].join("\n");
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const inlining = !args.includes("--no-inlining");
  const seconds = Number(args.find((arg) => !arg.startsWith("--")) ?? 10);
  if (!(seconds > 0)) throw new Error("seconds: a number over 0");
  const { proxy, bff_sessions: floor } = await allocationOfSignedInChecks(
    seconds,
    { inlining },
  );
  console.log(
    `Signed-in checks: proxy ${proxy.checks.toLocaleString("en-GB")}, floor ${floor.checks.toLocaleString("en-GB")}${inlining ? "" : `; both with ${NO_INLINING.join(" ")}`}\n`,
  );
  console.log(allocationTable(proxy.parts, floor.parts, "Part"));
  console.log();
  console.log(
    allocationTable(
      proxy.places,
      floor.places,
      "Place (allocating function)",
      30,
    ),
  );
}
