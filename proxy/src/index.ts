import type { Server } from "node:http";
import { serve } from "@hono/node-server";
import { HEALTH_PATH } from "@vics/shared";
import { createProxyApp, readinessChecks } from "./app.ts";
import { proxyMetrics } from "./metrics.ts";
import { loadEnv } from "./env.ts";
import { registrationHasher } from "@vics/server-kit/registration-hash";
import { serverTimeouts } from "@vics/server-kit/server-timeouts";
import { stopOnSignals } from "@vics/server-kit/graceful-close";
import { createUserLimiter } from "./team/limits/user-limits.ts";
import { openLimitStore } from "@vics/server-kit/limit-store";
import {
  openProxyStoreOrExit,
  storePlace,
} from "./team/store/open-proxy-store.ts";
import { connectOidc } from "./team/auth/oidc-discovery.ts";
import { pruneAuditDaily } from "./team/audit/audit-retention.ts";
import {
  firstAdminBanner,
  firstAdminSignInLink,
} from "./team/users/first-admin.ts";
import { guardConnections } from "@vics/server-kit/connection-guard";
import { apiKeyHolder } from "./gateway/keys/key-reload.ts";
import { systemClock } from "./proxy-deps.ts";
import { createLogger } from "@vics/server-kit/logger";
import { openMetrics } from "@vics/server-kit/metrics";
import { startTracing } from "@vics/server-kit/tracing";
import { ownerOnlySqlite } from "@vics/server-kit/owner-only";
import { createUpstreamPool } from "./gateway/upstream/upstream-pool.ts";
import { webAppIsBuilt } from "./gateway/static/static-site.ts";
import { openWatchJobs } from "./team/watch/jobs/open-watch-jobs.ts";

const env = loadEnv();
// Every key this process holds, masked in any log line; a reload adds the new one.
const secrets = [env.apiKey, ...(env.watchApiKey ? [env.watchApiKey] : [])];
const logger = createLogger({ service: "proxy", level: env.logLevel, secrets });
// Traces over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/operations.md); else nothing.
const tracing = await startTracing(env.tracing, { edge: true, logger });
const apiKey = apiKeyHolder({
  key: env.apiKey,
  keyFile: env.apiKeyFile,
  logger,
  secrets,
});

if (!webAppIsBuilt(env.webRoot)) {
  logger.warn("the web app is not built: run `npm run build -w @vics/web`", {
    webRoot: env.webRoot,
  });
}

// A database an older install left readable by other users is made the proxy's alone, and said.
const readable = env.store.databaseUrl
  ? undefined
  : ownerOnlySqlite(env.store.databasePath);
if (readable) logger.warn(readable.message, { files: readable.files });

// Prometheus metrics on a listener of their own, when METRICS_PORT is set (docs/operations.md):
// opened before the store and the limits, so that their pool and Redis are watched from the start.
const metrics = await openMetrics("proxy", env.metrics, logger).catch(
  (error: unknown) => {
    console.error((error as Error).message);
    process.exit(1);
  },
);
const measured = metrics.registry && proxyMetrics(metrics.registry);

// With tracing on, each store call in a traced request is a span of its own (the session read,
// the audit append), as the service's are.
const store = tracing.traceCalls(
  await openProxyStoreOrExit(
    env.store,
    "vics-proxy",
    "The proxy cannot start",
    measured && {
      auditWrites: measured.auditWrites,
      watchPool: measured.dependencies.watchPgPool,
    },
  ),
  env.store.databaseUrl ? "postgresql" : "sqlite",
);

// Beyond loopback, someone must be able to manage users from the start.
if (env.remote && (await store.countActiveAdmins()) === 0) {
  console.error(
    `The proxy cannot start: HOST=${env.host} serves VICS beyond this machine, and ${storePlace(env.store)} has no active admin yet. ` +
      "Create one first: scripts/users create --email you@example.org --admin",
  );
  process.exit(1);
}

// Reached in the background, retried with backoff while it is down. Passwords stay as
// LOCAL_SIGN_IN says: a provider that is down never turns them on (issue 33).
const oidc = env.oidc
  ? connectOidc(env.oidc, store, env.publicOrigin!, { logger })
  : undefined;

// Keep-alive connections to the service, reused across requests.
const upstream = createUpstreamPool(env.upstreamUrl);
measured?.watchUpstream(upstream.stats);

// With RATE_LIMIT_URL, every replica counts each person's look-ups and failed sign-ins in the
// same Redis; when Redis is down, those requests get 503 (decision 036). Unset: this process.
const limits = await openLimitStore(
  env.rateLimitUrl,
  logger,
  measured?.dependencies.redisError,
);
measured?.watchReadiness(readinessChecks({ store, limitStore: limits.store }));
// A person's own look-ups (decision 034), counting their refusals when measured.
const userLimiter = createUserLimiter(env.userLimits, limits.store);

// PUBLIC_ORIGIN, else the loopback address the proxy listens on (its port may be chosen then).
let linkOrigin = env.store.linkOrigin;

const watchJobs = openWatchJobs({
  store,
  logger,
  upstreamUrl: env.upstreamUrl,
  watchApiKey: env.watchApiKey,
  upstream: upstream.send,
  timeoutMs: env.timeoutMs,
  refreshLeadMinutes: env.watchRefreshLeadMinutes,
  databaseUrl: env.store.databaseUrl,
  alertMail: env.alertMail,
  appUrl: () => linkOrigin,
});
if (watchJobs) measured?.watchJobs({ store, jobs: watchJobs, now: Date.now });

const app = createProxyApp(
  {
    upstreamUrl: env.upstreamUrl,
    apiKey: apiKey.current,
    publicOrigin: env.publicOrigin,
    timeoutMs: env.timeoutMs,
    webRoot: env.webRoot,
    trustedProxies: env.trustedProxies,
    alertMailConfigured: env.alertMail !== undefined,
    alertEmails: env.alertEmails,
    fleetCaps: env.fleetCaps,
    staffAccess: {
      sessionTimes: env.sessionTimes,
      localSignIn: env.localSignIn,
      oidc,
      linkOrigin: () => linkOrigin,
    },
  },
  {
    clock: systemClock,
    store,
    limiter: measured?.countingUserRefusals(userLimiter) ?? userLimiter,
    limitStore: limits.store,
    logger,
    upstream: upstream.send,
    // The shared hasher remembers the plates' hashes (cached-hasher.ts).
    hashRegistration: registrationHasher(env.logHashKey),
    metrics: metrics.requests,
    onSignInThrottled: measured?.signInThrottled,
    watchJobs,
  },
);

const server = serve(
  {
    fetch: tracing.traceRequests(app.fetch),
    hostname: env.host,
    port: env.port,
    // A client that trickles its request is cut off after 30 s, not 5 minutes.
    serverOptions: serverTimeouts(),
  },
  (address) => {
    const host =
      address.family === "IPv6" ? `[${address.address}]` : address.address;
    linkOrigin = env.publicOrigin ?? `http://${host}:${address.port}`;
    logger.info("listening", {
      url: `http://${host}:${address.port}/`,
      upstream: env.upstreamUrl,
      webRoot: env.webRoot,
      ...(env.publicOrigin && { publicOrigin: env.publicOrigin }),
    });
    void warnIfUpstreamDown();
    void offerFirstAdminLink();
    watchJobs?.start().catch((error: unknown) =>
      logger.error("the re-checks of watched fleets could not start", {
        error: error instanceof Error ? error.message : String(error),
      }),
    );
  },
);

const stopPruning = pruneAuditDaily(store, Date.now, logger);
// Sessions past their end are refused when read; this removes the ones never read again.
const sweepSessions = setInterval(() => {
  store
    .deleteExpiredSessions(Date.now(), env.sessionTimes.idleMs)
    .catch((error: unknown) =>
      logger.error("removing ended sessions failed", {
        error: error instanceof Error ? error.message : String(error),
      }),
    );
}, 3_600_000);
sweepSessions.unref();

/**
 * On loopback, until an admin can sign in: a one-time link on the terminal that `npm start`
 * runs in. Not a log line: the link signs in, and logs are kept and shipped.
 */
async function offerFirstAdminLink(): Promise<void> {
  // On a shared store (PostgreSQL) the proxies are replicas, not `npm start` on someone's
  // machine: the admin is made with scripts/users, and no replica races another to make one.
  if (env.remote || env.store.databaseUrl !== undefined) return;
  const link = await firstAdminSignInLink(store, {
    email: env.firstAdminEmail,
    origin: linkOrigin,
    now: Date.now(),
  });
  if (!link) return;
  // stderr: stdout carries the JSON log lines, and this is for the person at the terminal.
  process.stderr.write(
    firstAdminBanner(link, { localSignIn: env.localSignIn }),
  );
}

// One client cannot take every socket, and idle ones go sooner when many are open.
guardConnections(server as Server, env.connectionLimits, { logger });

/** Says at start-up, not at the first staff check, when the vehicle service is not there. */
async function warnIfUpstreamDown(): Promise<void> {
  const health = new URL(HEALTH_PATH, env.upstreamUrl);
  try {
    const response = await fetch(health, { signal: AbortSignal.timeout(3000) });
    await response.body?.cancel();
    if (response.ok) return;
  } catch {
    // Unreachable: reported below.
  }
  logger.warn(
    "the vehicle service is not answering; checks will fail until it does",
    { upstream: env.upstreamUrl },
  );
}

server.on("error", (error: NodeJS.ErrnoException) => {
  const hint =
    error.code === "EADDRINUSE"
      ? `: port ${env.port} is in use, set PORT to another port`
      : "";
  console.error(
    `The proxy cannot listen on ${env.host}:${env.port}${hint} (${error.message})`,
  );
  process.exit(1);
});

// serve() without options other than these makes a node:http server.
stopOnSignals(server as Server, {
  logger,
  graceMs: env.shutdownGraceMs,
  stopping: "stopping",
  fields: { graceMs: env.shutdownGraceMs },
  close: async () => {
    stopPruning();
    oidc?.stop();
    await watchJobs?.stop();
    clearInterval(sweepSessions);
    await upstream.close();
    await store.close();
    limits.close();
    await metrics.close();
    await tracing.close();
  },
});
// Key rotation without a restart: docs/operations.md, "Rotating the proxy's key".
process.on("SIGHUP", () => apiKey.reload());
