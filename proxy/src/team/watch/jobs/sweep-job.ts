// The one handler both job engines run (decision 043): a sweep, recorded as a watch run from
// start to end. A sweep that fails is recorded so, then thrown, for the engine to retry.
import type { WatchRun } from "../../store/watch-store.ts";
import {
  sweepWatchedVehicles,
  type SweepDeps,
  type SweepReport,
} from "../sweep.ts";

export interface SweepRequest {
  kind: Exclude<WatchRun["kind"], "refresh">;
  /** "Check this fleet now": that fleet's vehicles only. */
  registrations?: string[];
  /** "Check this fleet now": which fleet, so that it is not queued twice. */
  fleetId?: string;
}

export type SweepHandler = (
  request: SweepRequest,
  signal?: AbortSignal,
) => Promise<SweepReport>;

export function sweepHandler(deps: SweepDeps): SweepHandler {
  return async (request, signal) => {
    const id = await deps.store.startWatchRun(request.kind, deps.now());
    try {
      const report = await sweepWatchedVehicles(deps, {
        signal,
        only: request.registrations,
        runId: id,
      });
      await deps.store.finishWatchRun(id, {
        finishedAt: deps.now(),
        outcome: report.status,
        vehicles: report.vehicles,
        unknown: report.unknown,
        alerts: report.opened.length,
      });
      return report;
    } catch (error) {
      const words = error instanceof Error ? error.message : String(error);
      await deps.store
        .finishWatchRun(id, {
          finishedAt: deps.now(),
          outcome: `failed: ${words}`,
          vehicles: 0,
          unknown: 0,
          alerts: 0,
        })
        .catch(() => undefined);
      throw error;
    }
  };
}
