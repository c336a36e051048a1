// The re-checks as the proxy runs them: off without a key of their own; pg-boss on the proxy's
// PostgreSQL, else croner in this process (decision 043). The client reaches the service
// directly with that key, through the v1 bulk routes, as any v1 client would.
import { createHttpFleetClient } from "@vics/fleet";
import type { Logger } from "@vics/shared/server/logger";
import type { ProxyStore } from "../../store/proxy-store.ts";
import { inProcessJobs } from "./in-process-jobs.ts";
import { pgBossJobs } from "./pg-boss-jobs.ts";
import { sweepHandler } from "./sweep-job.ts";
import type { WatchJobs } from "./watch-jobs.ts";

export function openWatchJobs(options: {
  store: ProxyStore;
  logger: Logger;
  upstreamUrl: string;
  watchApiKey?: string;
  /** The proxy's PostgreSQL, when it has one. */
  databaseUrl?: string;
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
  return options.databaseUrl === undefined
    ? inProcessJobs({ store, handler, logger, now: Date.now })
    : pgBossJobs({
        connectionString: options.databaseUrl,
        store,
        handler,
        logger,
      });
}
