// The sweeps where the team runs PostgreSQL: pg-boss, shared by every proxy replica. The daily
// schedule is evaluated in Europe/London; an occurrence missed while every process was down is
// sent once (`missed: 'once'`); one sweep is active at a time (a singleton queue); a worker
// sends heartbeats while it sweeps, a sweep that fails is retried with backoff, then moved to
// a dead-letter queue the admin can see. A fleet's "check now" is not queued again while one of
// that fleet is queued, under way or waiting to retry (vehicles just added to it are). pg-boss
// never migrates its schema here: every replica starts on what the store's owner setup made or
// migrated (store/postgres/jobs-schema.ts, beside the owner setup that installs it).
// On stop, a sweep or delivery run under way is abandoned at once (a sweep's answered batches
// are kept) and its job failed, so another replica retries it: pg-boss alone would wait for the
// handler until its stop's time-out, and the proxy's stop would outlast a supervisor's 15 s.
// The refresh of the watched vehicles' register facts has a queue of its own, scheduled its
// lead time before the daily sweep (one send a day between the replicas, as the sweep's),
// one run at a time, retried with backoff; only its last try's failure is recorded.
import { PgBoss, type Clock, type Job } from "pg-boss";
import type { Logger } from "@vics/server-kit/logger";
import { MIGRATION_HINT } from "../../store/postgres/owner-setup.ts";
import type { ProxyStore } from "../../store/proxy-store.ts";
import {
  DAILY_TIME_SETTING,
  DEFAULT_DAILY_TIME,
  SWEEP_TIME_ZONE,
  dailyCron,
  timeBefore,
} from "../../schedule/daily-time.ts";
import type { RefreshHandler } from "./refresh-job.ts";
import { JOBS_SCHEMA } from "../../store/postgres/jobs-schema.ts";
import type { DeliveryHandler } from "../../notify/delivery-job.ts";
import type { SweepHandler, SweepRequest } from "./sweep-job.ts";
import { SWEEP_ATTEMPTS, type QueuingJobEngine } from "./watch-jobs.ts";

export const SWEEP_QUEUE = "vics-watch-sweep";
export const SWEEP_DEAD_LETTER = "vics-watch-sweep-failed";
/** The register facts' refresh ahead of the daily sweep (issue 35). */
export const REFRESH_QUEUE = "vics-watch-refresh";
/** The alert deliveries (decision 044): one run at a time between the replicas. */
const DELIVERY_QUEUE = "vics-alert-deliveries";

/**
 * How long pg-boss's stop waits for a maintenance command of its own, then for the handlers, to
 * end (pg-boss's least, so at most 2 s in all). The handlers end within milliseconds, aborted as
 * the stop begins; one that does not is failed by pg-boss. The HTTP grace time comes first
 * (UPSTREAM_TIMEOUT_MS + 1 s by default), and a supervisor kills the proxy 15 s after SIGTERM.
 */
export const STOP_TIMEOUT_MS = 1_000;

/** Thrown by a handler the stop abandoned, so that its job fails and is retried elsewhere. */
const ABANDONED = "the proxy stopped while this job was under way";

/** The words of pg-boss's refusal to start on a schema it may not make or migrate. */
const SCHEMA_NOT_READY = /not installed|requires migrations/;

export interface PgBossJobsOptions {
  connectionString: string;
  store: ProxyStore;
  handler: SweepHandler;
  /** The alert deliveries, run every minute and after each sweep (decision 044). */
  deliver?: DeliveryHandler;
  /** The register facts' refresh ahead of the daily sweep (issue 35). */
  refresh?: RefreshHandler;
  /** How long before the daily sweep the refresh runs; 0 or unset: it does not. */
  refreshLeadMinutes?: number;
  /** Between the tries of a failed refresh, doubled each time (pg-boss's backoff). */
  refreshRetryDelaySeconds?: number;
  logger: Logger;
  /** pg-boss's own clock: its TestClock in tests. */
  clock?: Clock;
  /** Shown in pg_stat_activity and pg-boss's instance registry. */
  instanceName?: string;
}

export function pgBossJobs(options: PgBossJobsOptions): QueuingJobEngine {
  const { store, handler, logger, deliver } = options;
  const applicationName = options.instanceName ?? "vics-proxy jobs";
  const boss = new PgBoss({
    connectionString: options.connectionString,
    schema: JOBS_SCHEMA,
    application_name: applicationName,
    instanceName: options.instanceName,
    clock: options.clock,
    max: 3,
    // Made or migrated by the store's owner setup (setUpAsOwner), before any job engine starts:
    // pg-boss only checks that the schema is this release's.
    migrate: false,
  });
  /** Aborted as the stop begins: every handler under way gives up at once. */
  const stopping = new AbortController();
  const signalFor = (job: Job<unknown> | undefined) =>
    job ? AbortSignal.any([job.signal, stopping.signal]) : stopping.signal;
  boss.on("error", (error: Error) =>
    logger.error("The job engine met an error", { error: error.message }),
  );
  /**
   * Whether a sweep of this fleet is queued, active or waiting to retry. Not a singletonKey:
   * on this singleton queue a key would make "one active" per key, letting two fleets' sweeps
   * (or one and the daily) run at once. Two replicas asked in the same instant may both queue
   * one; the queue still runs them one after the other.
   */
  const fleetUnderWay = async (fleetId: string) => {
    const { rows } = await boss.getDb().executeSql(
      `SELECT 1 FROM ${JOBS_SCHEMA}.job
       WHERE name = $1 AND state < 'completed' AND data @> $2::jsonb LIMIT 1`,
      [SWEEP_QUEUE, JSON.stringify({ fleetId })],
    );
    return rows.length > 0;
  };
  const lead = options.refresh ? (options.refreshLeadMinutes ?? 0) : 0;
  const scheduleDaily = async (time: string) => {
    await boss.schedule(
      SWEEP_QUEUE,
      dailyCron(time),
      { kind: "daily" } satisfies SweepRequest,
      { tz: SWEEP_TIME_ZONE, missed: "once", key: "daily" },
    );
    // Off (or turned off since): a schedule an earlier start made is taken away.
    if (lead === 0) await boss.unschedule(REFRESH_QUEUE, "daily");
    else
      await boss.schedule(
        REFRESH_QUEUE,
        dailyCron(timeBefore(time, lead)),
        {},
        { tz: SWEEP_TIME_ZONE, key: "daily" },
      );
  };

  return {
    async start() {
      await boss.start().catch((error: unknown) => {
        const words = error instanceof Error ? error.message : String(error);
        if (!SCHEMA_NOT_READY.test(words)) throw error;
        throw new Error(
          `${words}: the proxy's role may not make pg-boss's schema ${JOBS_SCHEMA}, which the owner of the proxy's tables makes: ${MIGRATION_HINT}`,
          { cause: error },
        );
      });
      await boss.createQueue(SWEEP_DEAD_LETTER);
      // Made whether or not the refresh is on, so that turning it off can unschedule it.
      await boss.createQueue(REFRESH_QUEUE, {
        policy: "singleton",
        retryLimit: SWEEP_ATTEMPTS - 1,
        retryDelay: options.refreshRetryDelaySeconds ?? 60,
        retryBackoff: true,
        heartbeatSeconds: 60,
        expireInSeconds: 3600,
      });
      await boss.createQueue(SWEEP_QUEUE, {
        policy: "singleton",
        retryLimit: SWEEP_ATTEMPTS - 1,
        retryDelay: 60,
        retryBackoff: true,
        heartbeatSeconds: 60,
        expireInSeconds: 3 * 3600,
        deadLetter: SWEEP_DEAD_LETTER,
      });
      await scheduleDaily(
        (await store.watchSetting(DAILY_TIME_SETTING)) ?? DEFAULT_DAILY_TIME,
      );
      if (deliver) {
        // At most one run active and one waiting: asked again meanwhile adds nothing. A run
        // stops sending well inside its expiry (DELIVERY_RUN_MS), so no second one starts
        // beside it; its heartbeats say it is alive meanwhile.
        await boss.createQueue(DELIVERY_QUEUE, {
          policy: "stately",
          retryLimit: 0,
          heartbeatSeconds: 60,
          expireInSeconds: 30 * 60,
        });
        await boss.schedule(
          DELIVERY_QUEUE,
          "* * * * *",
          {},
          {
            key: "every-minute",
          },
        );
        await boss.work(DELIVERY_QUEUE, async ([job]: Job<object>[]) => {
          await deliver(signalFor(job));
        });
      }
      const refresh = options.refresh;
      if (refresh && lead > 0)
        await boss.work(REFRESH_QUEUE, async ([job]: Job<object>[]) => {
          // pg-boss counts a job's tries from 0: the last is the one with no retry left. A try
          // the stop abandons with retries left is retried, by this replica or another.
          const lastTry = () => (job?.retryCount ?? 0) >= SWEEP_ATTEMPTS - 1;
          await refresh(signalFor(job), lastTry).catch((error: unknown) => {
            logger.error(
              "The refresh of the watched vehicles' register facts failed; pg-boss retries it",
              {
                error: error instanceof Error ? error.message : String(error),
              },
            );
            throw error;
          });
        });
      await boss.work<SweepRequest>(
        SWEEP_QUEUE,
        async ([job]: Job<SweepRequest>[]) => {
          if (!job) return;
          const report = await handler(job.data, signalFor(job));
          // Abandoned by the stop: failed, not completed, so that the sweep is done again.
          if (report.status === "cancelled" && stopping.signal.aborted)
            throw new Error(ABANDONED);
          // The sweep is done: a failure to ask for its deliveries must not redo it (they
          // run within the minute anyway).
          if (deliver)
            await boss.send(DELIVERY_QUEUE, {}).catch((error: unknown) =>
              logger.warn(
                "could not ask for the alert deliveries after a sweep",
                {
                  error: error instanceof Error ? error.message : String(error),
                },
              ),
            );
        },
      );
    },
    async deliverNow() {
      if (deliver) await boss.send(DELIVERY_QUEUE, {});
    },
    async checkNow(fleet) {
      // Vehicles just added are queued behind a check under way, which checks only its own.
      if (fleet && !fleet.added && (await fleetUnderWay(fleet.fleetId)))
        return { alreadyRunning: true };
      await boss.send(SWEEP_QUEUE, {
        kind: "on demand",
        ...(fleet && {
          fleetId: fleet.fleetId,
          registrations: fleet.registrations,
        }),
      } satisfies SweepRequest);
      return { alreadyRunning: false };
    },
    checking: fleetUnderWay,
    // Created, or waiting to retry: not yet taken by a worker.
    async queuedSweeps() {
      const { rows } = await boss.getDb().executeSql(
        `SELECT count(*)::int AS depth,
           (extract(epoch FROM min(created_on)) * 1000)::bigint AS oldest_at
         FROM ${JOBS_SCHEMA}.job WHERE name = $1 AND state < 'active'`,
        [SWEEP_QUEUE],
      );
      const row = rows[0] as { depth: number; oldest_at: string | null };
      return {
        depth: Number(row.depth),
        ...(row.oldest_at !== null && { oldestAt: Number(row.oldest_at) }),
      };
    },
    async reschedule(time) {
      await scheduleDaily(time);
    },
    async stop() {
      stopping.abort();
      await boss.stop({ graceful: true, timeout: STOP_TIMEOUT_MS });
    },
  };
}
