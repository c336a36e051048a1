import type { Server } from "node:http";
import { serve } from "@hono/node-server";
import { HEALTH_PATH } from "@vics/shared";
import { createProxyApp } from "./app.ts";
import { loadEnv } from "./env.ts";
import { registrationHasher } from "@vics/shared/server/registration-hash";
import { serverTimeouts } from "@vics/shared/server/server-timeouts";
import { stopOnSignals } from "@vics/shared/server/graceful-close";
import { createMemoryRateLimiter } from "@vics/shared/server/memory-rate-limiter";
import { guardConnections } from "@vics/shared/server/connection-guard";
import { apiKeyHolder } from "./keys/key-reload.ts";
import { systemClock } from "./proxy-deps.ts";
import { createLogger } from "@vics/shared/server/logger";
import { createUpstreamPool } from "./upstream/upstream-pool.ts";
import { webAppIsBuilt } from "./static/static-site.ts";

const env = loadEnv();
// Every key this process holds, masked in any log line; a reload adds the new one.
const secrets = [env.apiKey];
const logger = createLogger({ service: "proxy", level: env.logLevel, secrets });
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

// Keep-alive connections to the service, reused across requests (issue 10).
const upstream = createUpstreamPool(env.upstreamUrl);

const app = createProxyApp(
  {
    upstreamUrl: env.upstreamUrl,
    apiKey: apiKey.current,
    publicOrigin: env.publicOrigin,
    timeoutMs: env.timeoutMs,
    webRoot: env.webRoot,
  },
  {
    clock: systemClock,
    limiter: createMemoryRateLimiter(),
    logger,
    upstream: upstream.send,
    hashRegistration: registrationHasher(env.logHashKey),
  },
);

const server = serve(
  {
    fetch: app.fetch,
    hostname: env.host,
    port: env.port,
    // A client that trickles its request is cut off after 30 s, not 5 minutes.
    serverOptions: serverTimeouts(),
  },
  (address) => {
    const host =
      address.family === "IPv6" ? `[${address.address}]` : address.address;
    logger.info("listening", {
      url: `http://${host}:${address.port}/`,
      upstream: env.upstreamUrl,
      webRoot: env.webRoot,
      ...(env.publicOrigin && { publicOrigin: env.publicOrigin }),
    });
    void warnIfUpstreamDown();
  },
);

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
  close: () => upstream.close(),
});
// Key rotation without a restart: docs/operations.md, "Rotating the proxy's key".
process.on("SIGHUP", () => apiKey.reload());
