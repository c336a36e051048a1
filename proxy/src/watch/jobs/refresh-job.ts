// The refresh ahead of the daily sweep as both job engines run it (decision 043): recorded as a
// watch run of its own kind, its counts in words the admin's re-checks page shows. A refresh
// that fails is recorded so, then thrown, for the engine to retry. With no register on, that is
// recorded once, until a refresh finds one on: the default deployment has none, and a line a
// day saying so would push the sweeps off the admin's list.
import type { Logger } from "@vics/shared/server/logger";
import type { ProxyStore } from "../../store/proxy-store.ts";
import {
  refreshWatchedVehicles,
  type RefreshCall,
  type RefreshReport,
} from "../register-refresh.ts";

export type RefreshHandler = (signal?: AbortSignal) => Promise<RefreshReport>;

export const NO_REGISTER_ON =
  "No live register is on: nothing was refreshed ahead of the sweep (docs/sources.md says how to turn one on).";

const count = (n: number) => n.toLocaleString("en-GB");

/** "Refreshed ahead of the sweep: 12,000 vehicles sent, 11,800 register requests queued, ..." */
export function refreshOutcome(report: RefreshReport): string {
  if (!report.on) return NO_REGISTER_ON;
  const invalid =
    report.invalid > 0
      ? `, ${count(report.invalid)} not taken for registrations`
      : "";
  return `Refreshed ahead of the sweep: ${count(report.sent)} vehicles sent, ${count(report.queued)} register requests queued, ${count(report.fresh)} already fresh${invalid}.`;
}

export function refreshHandler(deps: {
  store: ProxyStore;
  refresh: RefreshCall;
  now: () => number;
  logger: Logger;
}): RefreshHandler {
  const { store, logger } = deps;
  const record = async (
    startedAt: number,
    outcome: string,
    vehicles: number,
  ) => {
    const id = await store.startWatchRun("refresh", startedAt);
    await store.finishWatchRun(id, {
      finishedAt: deps.now(),
      outcome,
      vehicles,
      unknown: 0,
      alerts: 0,
    });
  };
  return async (signal) => {
    const startedAt = deps.now();
    let report: RefreshReport;
    try {
      report = await refreshWatchedVehicles(deps, signal);
    } catch (error) {
      const words = error instanceof Error ? error.message : String(error);
      await record(startedAt, `failed: ${words}`, 0).catch(() => undefined);
      throw error;
    }
    // Nothing watched: nothing was asked, nothing to say.
    if (report.sent === 0) return report;
    if (!report.on) {
      const last = (await store.watchRuns(50)).find(
        (run) => run.kind === "refresh",
      );
      if (last?.outcome === NO_REGISTER_ON) return report;
      logger.info(NO_REGISTER_ON);
      await record(startedAt, NO_REGISTER_ON, 0);
      return report;
    }
    const outcome = refreshOutcome(report);
    logger.info(outcome);
    await record(startedAt, outcome, report.sent);
    return report;
  };
}
