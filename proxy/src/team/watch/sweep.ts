// One sweep: every watched vehicle, each once however many fleets hold it, re-checked through
// the v1 bulk routes by the same engine as the browser's fleet run (@vics/fleet: its chunks,
// pacing, retries and outcomes), with insurance and compliance. Each batch of answers is
// recorded before it counts as done.
import { createFleetRun, type FleetClient, type RunTuning } from "@vics/fleet";
import type { ProxyStore } from "../store/proxy-store.ts";
import type { StoredAlert } from "../store/watch-store.ts";
import { recordResults } from "./recheck.ts";

export interface SweepDeps {
  store: ProxyStore;
  /** The v1 API with the re-checks' own key, so they never spend the staff's budget. */
  client: FleetClient;
  now: () => number;
  tuning?: Partial<RunTuning>;
}

export interface SweepReport {
  vehicles: number;
  /** Vehicles the upstream could not answer for: unknown until a later sweep. */
  unknown: number;
  /** The alerts this sweep opened. */
  opened: StoredAlert[];
  status: "finished" | "cancelled";
}

export async function sweepWatchedVehicles(
  deps: SweepDeps,
  options: {
    signal?: AbortSignal;
    /** Only these (one fleet's, checked now), if they are still watched. */
    only?: readonly string[];
    /** The watch run recording this sweep: its alerts are grouped by it. */
    runId?: number;
  } = {},
): Promise<SweepReport> {
  const watched = await deps.store.watchedRegistrations();
  const only = options.only && new Set(options.only);
  const registrations = only ? watched.filter((r) => only.has(r)) : watched;
  const report: SweepReport = {
    vehicles: registrations.length,
    unknown: 0,
    opened: [],
    status: "finished",
  };
  if (registrations.length === 0) return report;
  const run = createFleetRun({
    registrations,
    checkCompliance: true,
    client: deps.client,
    tuning: deps.tuning,
    onProgress: () => undefined,
    async onResults(batch) {
      const recorded = await recordResults(
        deps.store,
        batch,
        deps.now(),
        options.runId,
      );
      report.unknown += recorded.unknown;
      report.opened.push(...recorded.opened);
    },
  });
  options.signal?.addEventListener("abort", () => run.abandon(), {
    once: true,
  });
  report.status = (await run.start()).status;
  return report;
}
