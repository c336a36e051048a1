// The re-checks as the proxy runs them: off without a key of their own; pg-boss on the proxy's
// PostgreSQL, else croner in this process (decision 043). The client reaches the service
// directly with that key, through the v1 bulk routes, as any v1 client would. The jobs know
// whether they started, so the admin page never says they are on when they are not. Ahead of
// the daily sweep, the same key asks the service to refresh the watched vehicles' register facts
// (issue 35), through the proxy's own way to the service.
import { createHttpFleetClient } from "@vics/fleet";
import type { Logger } from "@vics/server-kit/logger";
import type { ProxyStore } from "../../store/proxy-store.ts";
import type { AlertMailEnv } from "../../../env/alert-mail.ts";
import { deliveryHandler } from "../../notify/delivery-job.ts";
import { inProcessJobs } from "./in-process-jobs.ts";
import { pgBossJobs } from "./pg-boss-jobs.ts";
import { sweepHandler } from "./sweep-job.ts";
import { refreshHandler } from "./refresh-job.ts";
import { registerRefreshCall } from "../register-refresh.ts";
import type { UpstreamSend } from "../../../gateway/upstream/upstream-call.ts";
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
  /** The proxy's way to the service (its pool). */
  upstream: UpstreamSend;
  /** How long one upstream call may take (UPSTREAM_TIMEOUT_MS). */
  timeoutMs: number;
  /** WATCH_REFRESH_LEAD_MINUTES: 0, no refresh ahead of the sweep. */
  refreshLeadMinutes: number;
}): WatchJobs | undefined {
  const { store, logger } = options;
  if (options.watchApiKey === undefined) {
    logger.warn(
      "watched fleets are saved but not re-checked: set WATCH_API_KEY_FILE to a key of the re-checks' own",
    );
    return undefined;
  }
  // What both engines are given.
  const jobs = {
    store,
    logger,
    handler: sweepHandler({
      store,
      now: Date.now,
      client: createHttpFleetClient({
        baseUrl: options.upstreamUrl,
        headers: { "X-API-Key": options.watchApiKey },
      }),
    }),
    deliver: deliveryHandler({
      store,
      logger,
      now: Date.now,
      alertMail: options.alertMail,
      appUrl: options.appUrl,
    }),
    refresh: refreshHandler({
      store,
      logger,
      now: Date.now,
      refresh: registerRefreshCall({
        send: options.upstream,
        upstreamUrl: options.upstreamUrl,
        apiKey: options.watchApiKey,
        timeoutMs: options.timeoutMs,
      }),
    }),
    refreshLeadMinutes: options.refreshLeadMinutes,
  };
  return withStartState(
    options.databaseUrl === undefined
      ? inProcessJobs({ ...jobs, now: Date.now })
      : pgBossJobs({ ...jobs, connectionString: options.databaseUrl }),
  );
}
