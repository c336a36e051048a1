import type { Server } from "node:http";
import { setTimeout as delay } from "node:timers/promises";
import { serve } from "@hono/node-server";
import { createApp, readinessChecks } from "./app.ts";
import { serviceMetrics } from "./metrics.ts";
import { stopOnSignals } from "@vics/server-kit/graceful-close";
import { loadEnv, SERVICE_TRACE_NAME } from "./env.ts";
import { registrationHasher } from "@vics/server-kit/registration-hash";
import { serverTimeouts } from "@vics/server-kit/server-timeouts";
import { createLogger } from "@vics/server-kit/logger";
import { openMetrics } from "@vics/server-kit/metrics";
import { startTracing } from "@vics/server-kit/tracing";
import { tracingSettings } from "@vics/server-kit/tracing-settings";
import { ownerOnlySqlite } from "@vics/server-kit/owner-only";
import { openLimitStore } from "@vics/server-kit/limit-store";
import { createRateLimiter } from "@vics/server-kit/rate-limiter";
import { guardConnections } from "@vics/server-kit/connection-guard";
import {
  createWrongKeyBudget,
  WRONG_KEYS_PER_WINDOW,
} from "./http/wrong-key-budget.ts";
import { clientAddress } from "./http/client-address.ts";
import { openSources } from "./sources/open-sources.ts";
import { SANDBOX_DELAY_MS } from "./sandbox.ts";
import { withCachedKeys } from "./store/cached-keys.ts";
import {
  databaseFields,
  databaseSettings,
  openStoreOrExit,
} from "./store/open-store.ts";

const SHUTDOWN_GRACE_MS = 5000;

const env = loadEnv();
const logger = createLogger({ service: "service", level: env.LOG_LEVEL });
// Traces over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/operations.md); else nothing.
const tracing = await startTracing(tracingSettings(env, SERVICE_TRACE_NAME), {
  logger,
});
// DATABASE_URL's PostgreSQL, else the SQLite file: migrated, and seeded when empty and asked.
const database = databaseSettings(env, "vics-service");
// Keys are looked up once per KEY_CACHE_TTL_MS, not per request; revocations apply within it.
// The data's freshness and range (decision 041) the store holds itself (held-data-info.ts).
// A database an older install left readable by other users is made the service's alone, and said.
const readable = env.DATABASE_URL
  ? undefined
  : ownerOnlySqlite(env.DATABASE_PATH);
if (readable) logger.warn(readable.message, { files: readable.files });
// Prometheus metrics on a listener of their own, when METRICS_PORT is set (docs/operations.md):
// opened before the store and the limits, so that their pool and Redis are watched from the start.
const metrics = await openMetrics(
  "service",
  env.METRICS_PORT === undefined
    ? undefined
    : { host: env.METRICS_HOST, port: env.METRICS_PORT },
  logger,
).catch((error: unknown) => {
  console.error((error as Error).message);
  process.exit(1);
});
const measured = metrics.registry && serviceMetrics(metrics.registry);
const opened = await openStoreOrExit(
  { ...database, watchPool: measured?.dependencies.watchPgPool },
  new Date(),
  (message, fields) => logger.info(message, fields),
);
const store = withCachedKeys(
  tracing.traceCalls(opened, env.DATABASE_URL ? "postgresql" : "sqlite"),
);
const sandbox = env.SANDBOX ?? (await store.holdsSyntheticFleet());

// With RATE_LIMIT_URL, every replica counts in the same Redis, so the limits stay exact; when
// Redis is down, limited requests get 503 (decision 036). Unset: this process's memory.
const limits = await openLimitStore(
  env.RATE_LIMIT_URL,
  logger,
  measured?.dependencies.redisError,
);
// The plan, address and wrong-key limits, counting their refusals when measured.
const uncounted = {
  rateLimiter: createRateLimiter(limits.store),
  wrongKeyBudget: createWrongKeyBudget(WRONG_KEYS_PER_WINDOW, limits.store),
};
const limiters = measured?.counting(uncounted) ?? uncounted;
measured?.watchReadiness(readinessChecks({ store, ...limiters }));

// The live registers the environment turns on (docs/sources.md); none by default.
const refresher = openSources(env.sources, {
  store,
  limits: limits.store,
  now: () => new Date(),
  logger,
});

const app = createApp({
  store,
  ...(refresher && {
    sources: {
      refresher,
      waitMs: env.sources.waitMs,
      bulkWaitMs: env.sources.bulkWaitMs,
    },
  }),
  ...limiters,
  now: () => new Date(),
  sandbox,
  sandboxDelayMs: SANDBOX_DELAY_MS,
  sleep: (ms) => delay(ms),
  logger,
  hashRegistration: registrationHasher(env.LOG_HASH_KEY),
  clientAddress: clientAddress(env.TRUSTED_PROXIES),
  metrics: metrics.requests,
});

const server = serve(
  {
    fetch: tracing.traceRequests(app.fetch),
    hostname: env.HOST,
    port: env.PORT,
    // A client that trickles its request is cut off after 30 s, not 5 minutes.
    serverOptions: serverTimeouts(),
  },
  (info) => {
    const host = info.family === "IPv6" ? `[${info.address}]` : info.address;
    logger.info("listening", {
      url: `http://${host}:${info.port}`,
      sandbox,
      registers: refresher?.sources.map(({ source }) => source.name) ?? [],
      ...databaseFields(database),
    });
  },
);

// One client cannot take every socket, and idle ones go sooner when many are open.
guardConnections(
  server as Server,
  {
    maxTotal: env.MAX_CONNECTIONS,
    maxPerAddress: env.MAX_CONNECTIONS_PER_ADDRESS,
    idleUnderPressureMs: env.IDLE_TIMEOUT_UNDER_PRESSURE_MS,
  },
  { logger },
);

server.on("error", (error: NodeJS.ErrnoException) => {
  const hint =
    error.code === "EADDRINUSE"
      ? ": the port is in use; set PORT to another one"
      : "";
  console.error(
    `The VICS service cannot listen on ${env.HOST}:${env.PORT}${hint} (${error.message})`,
  );
  void store.close().then(() => process.exit(1));
});

// Requests in flight finish; after the grace period, the rest is cut; then the database closes.
stopOnSignals(server as Server, {
  logger,
  graceMs: SHUTDOWN_GRACE_MS,
  stopping: "stopping: closing the server and the database",
  close: async () => {
    await refresher?.close();
    await store.close();
    limits.close();
    await metrics.close();
    await tracing.close();
  },
});
