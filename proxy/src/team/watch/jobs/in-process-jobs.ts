// The sweeps on the embedded SQLite: croner fires the daily sweep at the admin's time in
// Europe/London; sweeps run one at a time in this process, each retried after a failure. A
// daily sweep missed while the proxy was down runs once when it starts again (as pg-boss's
// `missed: 'once'`). A fleet's "check now" is queued once: asked again before it has finished,
// it answers that one is already under way. The refresh of the watched vehicles' register facts
// fires its lead time before the daily sweep, one at a time, retried as a sweep is.
import { Cron } from "croner";
import { sleep as fleetSleep } from "@vics/fleet";
import type { Logger } from "@vics/server-kit/logger";
import type { ProxyStore } from "../../store/proxy-store.ts";
import {
  DAILY_TIME_SETTING,
  DEFAULT_DAILY_TIME,
  SWEEP_TIME_ZONE,
  dailyCron,
  timeBefore,
} from "../../schedule/daily-time.ts";
import type { RefreshHandler } from "./refresh-job.ts";
import type { DeliveryHandler } from "../../notify/delivery-job.ts";
import type { SweepHandler, SweepRequest } from "./sweep-job.ts";
import { SWEEP_ATTEMPTS, type QueuingJobEngine } from "./watch-jobs.ts";

export interface InProcessJobsOptions {
  store: ProxyStore;
  handler: SweepHandler;
  /** The alert deliveries, run every minute and after each sweep (decision 044). */
  deliver?: DeliveryHandler;
  /**
   * Whether the deliveries also run every minute, besides after each sweep and when asked;
   * true unless told (false: a test that counts the runs).
   */
  deliverEveryMinute?: boolean;
  /** The register facts' refresh ahead of the daily sweep (issue 35). */
  refresh?: RefreshHandler;
  /** How long before the daily sweep the refresh runs; 0 or unset: it does not. */
  refreshLeadMinutes?: number;
  logger: Logger;
  now: () => number;
  /** Between the tries of a failed sweep. */
  retryDelayMs?: number;
  /** Waits `ms`, or less once `signal` aborts (the stop). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Whether a daily sweep came due since the last one that finished, while nothing ran it. */
export function missedDailySweep(
  cron: Cron,
  lastFinishedStart: number | undefined,
  now: number,
): boolean {
  const [due] = cron.previousRuns(1, new Date(now));
  if (!due) return false;
  return lastFinishedStart === undefined || lastFinishedStart < due.getTime();
}

export function inProcessJobs(options: InProcessJobsOptions): QueuingJobEngine {
  const { store, handler, logger, now } = options;
  let cron: Cron | undefined;
  let deliveryCron: Cron | undefined;
  let refreshCron: Cron | undefined;
  let queue: Promise<void> = Promise.resolve();
  /** Aborted by stop(). */
  const stopping = new AbortController();
  /**
   * The wait between a failed sweep's tries, cut short by the stop: stop() waits for the queue,
   * and a minute's wait made the proxy outlast a supervisor's 15 s before SIGKILL.
   */
  const sleep = options.sleep ?? fleetSleep;
  /** The fleets whose "check now" is queued or under way, with how many of their checks are. */
  const fleetsUnderWay = new Map<string, number>();

  /** One delivery run at a time; asked while one runs, one more follows it. */
  let delivering: Promise<void> | undefined;
  let deliverAgain = false;
  const deliver = (): Promise<void> => {
    const handle = options.deliver;
    if (!handle || stopping.signal.aborted) return Promise.resolve();
    if (delivering) {
      deliverAgain = true;
      return delivering;
    }
    delivering = (async () => {
      do {
        deliverAgain = false;
        // Aborted by the stop: a run stops between its sends.
        await handle(stopping.signal).catch((error: unknown) =>
          logger.error("The alert deliveries failed", {
            error: error instanceof Error ? error.message : String(error),
          }),
        );
      } while (deliverAgain && !stopping.signal.aborted);
    })().finally(() => {
      delivering = undefined;
    });
    return delivering;
  };

  /**
   * Up to SWEEP_ATTEMPTS tries of `attempt`, each failure logged under `failed`, with the wait
   * between them cut short by the stop. A try is told whether it is the last: the third, or one
   * the stop cut short (none follows it here).
   */
  const withRetries = async (
    failed: string,
    fields: Record<string, unknown>,
    attempt: (lastTry: () => boolean) => Promise<unknown>,
  ): Promise<void> => {
    for (let n = 1; n <= SWEEP_ATTEMPTS; n += 1) {
      if (stopping.signal.aborted) return;
      try {
        await attempt(() => n === SWEEP_ATTEMPTS || stopping.signal.aborted);
        return;
      } catch (error) {
        logger.error(failed, {
          ...fields,
          attempt: n,
          error: error instanceof Error ? error.message : String(error),
        });
        if (n < SWEEP_ATTEMPTS)
          await sleep(options.retryDelayMs ?? 60_000, stopping.signal);
      }
    }
  };

  /** One refresh at a time: fired while one runs (a retry waiting), it adds none. */
  let refreshing: Promise<void> | undefined;
  const refresh = (): Promise<void> => {
    const handle = options.refresh;
    if (!handle || stopping.signal.aborted) return Promise.resolve();
    refreshing ??= withRetries(
      "The refresh of the watched vehicles' register facts failed",
      {},
      (lastTry) => handle(stopping.signal, lastTry),
    ).finally(() => {
      refreshing = undefined;
    });
    return refreshing;
  };

  const run = (request: SweepRequest) =>
    withRetries(
      "A sweep of the watched vehicles failed",
      { kind: request.kind },
      async () => {
        await handler(request, stopping.signal);
        void deliver();
      },
    );
  /** When each sweep queued and not yet started was asked for, oldest first (the metrics). */
  const waiting: number[] = [];
  const enqueue = (request: SweepRequest) => {
    waiting.push(now());
    queue = queue.then(() => {
      waiting.shift();
      return run(request);
    });
    return queue;
  };
  const schedule = (time: string) => {
    cron?.stop();
    cron = new Cron(
      dailyCron(time),
      { timezone: SWEEP_TIME_ZONE, name: "daily sweep" },
      () => void enqueue({ kind: "daily" }),
    );
    refreshCron?.stop();
    const lead = options.refreshLeadMinutes ?? 0;
    if (options.refresh && lead > 0)
      refreshCron = new Cron(
        dailyCron(timeBefore(time, lead)),
        { timezone: SWEEP_TIME_ZONE, name: "register refresh" },
        () => void refresh(),
      );
    return cron;
  };

  return {
    async start() {
      const time =
        (await store.watchSetting(DAILY_TIME_SETTING)) ?? DEFAULT_DAILY_TIME;
      const daily = schedule(time);
      if (options.deliver && options.deliverEveryMinute !== false)
        deliveryCron = new Cron(
          "* * * * *",
          { name: "alert deliveries", protect: true },
          () => void deliver(),
        );
      // However many refreshes and on-demand runs came since (a page of the newest may hold
      // none): else a restart would run a daily sweep that was not missed.
      const last = await store.lastWatchRun("daily", "finished");
      if (missedDailySweep(daily, last?.startedAt, now()))
        void enqueue({ kind: "daily" });
    },
    async checkNow(fleet) {
      if (!fleet) {
        void enqueue({ kind: "on demand" });
        return { alreadyRunning: false };
      }
      const { fleetId, registrations, added } = fleet;
      // Vehicles just added are queued behind a check under way, which checks only its own.
      if (!added && fleetsUnderWay.has(fleetId))
        return { alreadyRunning: true };
      fleetsUnderWay.set(fleetId, (fleetsUnderWay.get(fleetId) ?? 0) + 1);
      const done = () => {
        const left = (fleetsUnderWay.get(fleetId) ?? 1) - 1;
        if (left > 0) fleetsUnderWay.set(fleetId, left);
        else fleetsUnderWay.delete(fleetId);
      };
      void enqueue({ kind: "on demand", registrations, fleetId }).then(
        done,
        done,
      );
      return { alreadyRunning: false };
    },
    async checking(fleetId) {
      return fleetsUnderWay.has(fleetId);
    },
    async queuedSweeps() {
      return { depth: waiting.length, oldestAt: waiting[0] };
    },
    async deliverNow() {
      void deliver();
    },
    async reschedule(time) {
      schedule(time);
    },
    async stop() {
      cron?.stop();
      deliveryCron?.stop();
      refreshCron?.stop();
      stopping.abort();
      await Promise.all([queue, delivering, refreshing]);
    },
  };
}
