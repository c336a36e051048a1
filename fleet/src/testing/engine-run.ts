// Test support: a fake clock whose sleeps take no real time, a harness that runs the engine
// against a client (the fake upstream's, or any), and the check every scenario ends with.
import { expect } from "vitest";
import { createFleetRun } from "../engine/fleet-run.ts";
import type {
  FleetRun,
  FleetRunOptions,
  RunEnd,
} from "../engine/fleet-run-types.ts";
import type { RunTuning } from "../engine/run-tuning.ts";
import type { FleetClient } from "../fleet-client.ts";
import type { RunProgress, VehicleResult } from "../results.ts";

export interface FakeClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Every sleep that ran to its end, in ms. */
  slept: number[];
  /** Ends every held sleep (see `holdFrom`). */
  release(): void;
}

/**
 * Time moves only when a sleep ends (one real macrotask later), to the time it was due. Sleeps
 * of `holdFrom` ms or more are held until their signal aborts or release() is called, so a test
 * can see whether something else ended a wait early.
 */
export function fakeClock(
  options: { start?: number; holdFrom?: number } = {},
): FakeClock {
  let time = options.start ?? Date.UTC(2026, 0, 5, 9, 0, 0);
  const held = new Set<() => void>();
  const clock: FakeClock = {
    now: () => time,
    slept: [],
    release() {
      for (const end of [...held]) end();
    },
    sleep(ms, signal) {
      const due = time + Math.max(0, ms);
      return new Promise((resolve) => {
        const end = () => {
          held.delete(end);
          if (!signal?.aborted) {
            time = Math.max(time, due);
            clock.slept.push(ms);
          }
          resolve();
        };
        if (options.holdFrom !== undefined && ms >= options.holdFrom) {
          held.add(end);
          signal?.addEventListener("abort", end, { once: true });
        } else setTimeout(end, 0);
      });
    },
  };
  return clock;
}

export function quickTuning(
  clock: FakeClock,
  tuning: Partial<RunTuning> = {},
): Partial<RunTuning> {
  return {
    now: clock.now,
    sleep: clock.sleep,
    random: () => 0.5,
    progressIntervalMs: 0,
    ...tuning,
  };
}

export function registrationsNumbered(count: number, prefix = "FL"): string[] {
  return Array.from(
    { length: count },
    (_, index) => `${prefix}${String(index + 1).padStart(5, "0")}`,
  );
}

export interface EngineRun {
  run: FleetRun;
  end: Promise<RunEnd>;
  batches: VehicleResult[][];
  progress: RunProgress[];
  results(): Map<string, VehicleResult>;
}

export function startEngine(options: {
  /** Usually the fake upstream's: `fakeUpstream(...).client`. */
  client: FleetClient;
  registrations: readonly string[];
  checkCompliance?: boolean;
  tuning: Partial<RunTuning>;
  onResults?: (batch: VehicleResult[]) => Promise<void> | void;
  onAccessLost?: FleetRunOptions["onAccessLost"];
}): EngineRun {
  const batches: VehicleResult[][] = [];
  const progress: RunProgress[] = [];
  const run = createFleetRun({
    registrations: options.registrations,
    checkCompliance: options.checkCompliance ?? false,
    client: options.client,
    tuning: options.tuning,
    async onResults(batch) {
      await options.onResults?.(batch);
      batches.push(batch);
    },
    onProgress: (report) => progress.push(report),
    onAccessLost: options.onAccessLost,
  });
  return {
    run,
    end: run.start(),
    batches,
    progress,
    results: () =>
      new Map(batches.flat().map((result) => [result.registration, result])),
  };
}

/** Every registration has exactly one result, with every part the run asked for; none extra. */
export function expectOneOutcomeEach(
  registrations: readonly string[],
  batches: readonly VehicleResult[][],
  checkCompliance = false,
): void {
  const seen = new Map<string, number>();
  const partsMissing: string[] = [];
  for (const result of batches.flat()) {
    seen.set(result.registration, (seen.get(result.registration) ?? 0) + 1);
    const hasCompliance = result.compliance !== undefined;
    if (!result.insurance || hasCompliance !== checkCompliance)
      partsMissing.push(result.registration);
  }
  const missing = registrations.filter(
    (registration) => !seen.has(registration),
  );
  const repeated = [...seen]
    .filter(([, count]) => count > 1)
    .map(([registration]) => registration);
  const asked = new Set(registrations);
  const extra = [...seen.keys()].filter(
    (registration) => !asked.has(registration),
  );
  expect({ missing, repeated, extra, partsMissing }).toEqual({
    missing: [],
    repeated: [],
    extra: [],
    partsMissing: [],
  });
}

export function notCheckedReasons(
  results: Map<string, VehicleResult>,
): Map<string, string> {
  const reasons = new Map<string, string>();
  for (const [registration, result] of results) {
    if (result.insurance.status === "not-checked")
      reasons.set(registration, result.insurance.reason);
  }
  return reasons;
}
