// The refresh ahead of the daily sweep as both job engines run it (decision 043): recorded as a
// watch run of its own kind, its counts in words the admin's re-checks page shows. It asks the
// service for every fact that will be stale by the coming sweep, not only those stale now. A try
// that fails is logged and thrown, for the engine to retry; only the last try's failure is
// recorded, so a service down for the morning is one line on the admin's list, not three. With
// no register on, that is recorded once, until a refresh finds one on: the default deployment
// has none, and a line a day saying so would push the sweeps off the admin's list.
import type { Logger } from "@vics/server-kit/logger";
import type { ProxyStore } from "../../store/proxy-store.ts";
import {
  refreshWatchedVehicles,
  type RefreshCall,
  type RefreshReport,
} from "../register-refresh.ts";
import {
  DAILY_TIME_SETTING,
  DEFAULT_DAILY_TIME,
  nextDailyAt,
} from "../../schedule/daily-time.ts";

/**
 * One try of the refresh. `lastTry` says, when the try has failed, whether no other try follows
 * (unset: none does), so that its failure is recorded.
 */
export type RefreshHandler = (
  signal?: AbortSignal,
  lastTry?: () => boolean,
) => Promise<RefreshReport>;

export const NO_REGISTER_ON =
  "No live register is on: nothing was refreshed ahead of the sweep (docs/sources.md says how to turn one on).";

const count = (n: number) => n.toLocaleString("en-GB");

/**
 * "Queued ahead of the sweep: 12,000 vehicles sent, ...": the service has queued the requests,
 * not made them yet; its Sources page says how many it made and what the quota left.
 */
export function refreshOutcome(report: RefreshReport): string {
  const invalid =
    report.invalid > 0
      ? `, ${count(report.invalid)} not taken for registrations`
      : "";
  return `Queued ahead of the sweep: ${count(report.sent)} vehicles sent, ${count(report.queued)} register requests queued, ${count(report.fresh)} already fresh${invalid}; the Sources page shows the requests made and any left for the quota.`;
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
  return async (signal, lastTry = () => true) => {
    const startedAt = deps.now();
    let report: RefreshReport;
    try {
      const time =
        (await store.watchSetting(DAILY_TIME_SETTING)) ?? DEFAULT_DAILY_TIME;
      const until = nextDailyAt(time, startedAt);
      report = await refreshWatchedVehicles({ ...deps, until }, signal);
    } catch (error) {
      // Each try's failure is logged by the engine; a try another follows is not recorded.
      if (lastTry()) {
        const words = error instanceof Error ? error.message : String(error);
        await record(startedAt, `failed: ${words}`, 0).catch(() => undefined);
      }
      throw error;
    }
    // Nothing watched: nothing was asked, nothing to say.
    if (report.sent === 0) return report;
    if (!report.on) {
      const last = await store.lastWatchRun("refresh");
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
