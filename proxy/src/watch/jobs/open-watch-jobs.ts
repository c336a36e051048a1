// The re-checks as the proxy runs them: off without a key of their own; pg-boss on the proxy's
// PostgreSQL, else croner in this process (decision 043). The client reaches the service
// directly with that key, through the v1 bulk routes, as any v1 client would. The jobs know
// whether they started, so the admin page never says they are on when they are not.
import { createHttpFleetClient } from "@vics/fleet";
import type { Logger } from "@vics/shared/server/logger";
import type { ProxyStore } from "../../store/proxy-store.ts";
import type { AlertMailEnv } from "../../env.ts";
import { deliveryHandler } from "../../notify/delivery-job.ts";
import { inProcessJobs } from "./in-process-jobs.ts";
import { pgBossJobs } from "./pg-boss-jobs.ts";
import { sweepHandler } from "./sweep-job.ts";
import type { JobEngine, JobsState, WatchJobs } from "./watch-jobs.ts";

/** The engine, with whether its start() succeeded and, until it has, why not in words. */
export function withStartState(engine: JobEngine): WatchJobs {
  let state: JobsState = {
    running: false,
    reason: "Re-checks are not running yet: their job engine is starting.",
  };
  return {
    ...engine,
    async start() {
      try {
        await engine.start();
        state = { running: true };
      } catch (error) {
        const words = error instanceof Error ? error.message : String(error);
        state = {
          running: false,
          reason: `Re-checks are off: their job engine could not start (${words}). They start with the proxy, once that is put right.`,
        };
        throw error;
      }
    },
    async stop() {
      state = {
        running: false,
        reason: "Re-checks are off: the proxy is stopping.",
      };
      await engine.stop();
    },
    state: () => state,
  };
}

export function openWatchJobs(options: {
  store: ProxyStore;
  logger: Logger;
  upstreamUrl: string;
  watchApiKey?: string;
  /** The proxy's PostgreSQL, when it has one. */
  databaseUrl?: string;
  /** Alert emails' SMTP server; unset, emails wait (decision 044). */
  alertMail?: AlertMailEnv;
  /** The web app's origin, for the links in alerts. */
  appUrl: () => string;
}): WatchJobs | undefined {
  const { store, logger } = options;
  if (options.watchApiKey === undefined) {
    logger.warn(
      "watched fleets are saved but not re-checked: set WATCH_API_KEY_FILE to a key of the re-checks' own",
    );
    return undefined;
  }
  const handler = sweepHandler({
    store,
    now: Date.now,
    client: createHttpFleetClient({
      baseUrl: options.upstreamUrl,
      headers: { "X-API-Key": options.watchApiKey },
    }),
  });
  const deliver = deliveryHandler({
    store,
    logger,
    now: Date.now,
    alertMail: options.alertMail,
    appUrl: options.appUrl,
  });
  return withStartState(
    options.databaseUrl === undefined
      ? inProcessJobs({ store, handler, deliver, logger, now: Date.now })
      : pgBossJobs({
          connectionString: options.databaseUrl,
          store,
          handler,
          deliver,
          logger,
        }),
  );
}
