// What the proxy allocates for one signed-in check (decision 062's figure): `checks` single
// insurance checks through the whole proxy app (edges, session, user limit, forward, audit),
// each answered by a stand-in upstream with a contract answer, so that what is counted is the
// proxy's own work. V8's sampling heap profiler (node:inspector) runs over them, keeping the
// samples of objects already collected, so its total is what was allocated, not what is left.
// The log is silent: the test proxy's memory logger would keep every access line, which the
// proxy's own logger writes out and lets go.
// Run: `scripts/node24 node bench/proxy-allocation.ts [checks]` (3,000 unless told).
import { Session } from "node:inspector/promises";
import { silentLogger } from "@vics/server-kit/logger";
import { createTestProxy } from "@vics/proxy/testing";
import { insuranceRecord } from "@vics/proxy/testing/fault-answers";

/** One sample per 512 bytes allocated on average: fine enough for a figure in tenths of a kB. */
const SAMPLING_INTERVAL_BYTES = 512;
/** Untimed and unsampled: the JIT, the store's statements and the session cache settle. */
const WARM_UP_CHECKS = 300;

interface SamplingNode {
  selfSize: number;
  children: SamplingNode[];
}

const totalSize = (node: SamplingNode): number =>
  node.children.reduce((sum, child) => sum + totalSize(child), node.selfSize);

interface AllocationFigure {
  checks: number;
  /** Bytes allocated a check, as the profiler's samples add up. */
  bytesPerCheck: number;
}

export async function allocationPerCheck(
  checks = 3_000,
): Promise<AllocationFigure> {
  const record = insuranceRecord("AB12CDE");
  const body = JSON.stringify(record);
  const { app, store } = createTestProxy({
    logger: silentLogger,
    send: async () => ({
      status: 200,
      headers: new Headers({ "Content-Type": "application/json" }),
      body,
    }),
  });
  const check = async () => {
    const response = await app.request("/api/v1/vehicle/AB12CDE/insurance");
    if (response.status !== 200)
      throw new Error(`a check was answered ${response.status}`);
    await response.arrayBuffer();
  };
  const session = new Session();
  session.connect();
  try {
    for (let i = 0; i < WARM_UP_CHECKS; i++) await check();
    await session.post("HeapProfiler.startSampling", {
      samplingInterval: SAMPLING_INTERVAL_BYTES,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    for (let i = 0; i < checks; i++) await check();
    const { profile } = (await session.post("HeapProfiler.stopSampling")) as {
      profile: { head: SamplingNode };
    };
    return { checks, bytesPerCheck: totalSize(profile.head) / checks };
  } finally {
    session.disconnect();
    await store.close();
  }
}

if (import.meta.main) {
  const checks = Number(process.argv[2] ?? 3_000);
  const { bytesPerCheck } = await allocationPerCheck(checks);
  console.log(
    `${checks.toLocaleString("en-GB")} signed-in checks: ${(bytesPerCheck / 1024).toFixed(1)} kB allocated a check`,
  );
}
