import type { Server } from "node:http";
import { serve } from "@hono/node-server";
import { HEALTH_PATH } from "@vics/shared";
import { createProxyApp } from "./app.ts";
import { loadEnv } from "./env.ts";
import { registrationHasher } from "@vics/shared/node";
import { serverTimeouts } from "@vics/shared/node/server-timeouts";
import { guardConnections } from "@vics/shared/node/connection-guard";
import { gracefulCloser } from "@vics/shared/node/graceful-close";
import { apiKeyHolder } from "./keys/key-reload.ts";
import { createLogger } from "./http/logger.ts";
import { createUpstreamPool } from "./upstream/upstream-pool.ts";
import { webAppIsBuilt } from "./static/static-site.ts";

const env = loadEnv();
// Every key this process holds, masked in any log line; a reload adds the new one.
const secrets = [env.apiKey];
const logger = createLogger({ level: env.logLevel, secrets });
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

const app = createProxyApp({
  upstreamUrl: env.upstreamUrl,
  apiKey: apiKey.current,
  publicOrigin: env.publicOrigin,
  send: upstream.send,
  timeoutMs: env.timeoutMs,
  webRoot: env.webRoot,
  logger,
  hashRegistration: registrationHasher(env.logHashKey),
});

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
const closeGracefully = gracefulCloser(server as Server, logger);

let stopping = false;
function shutdown(signal: string) {
  // npm start's children get Ctrl-C's SIGINT from the terminal and a SIGTERM from npm start.
  if (stopping) return;
  stopping = true;
  // Closes the listening socket at once; "stopping" is logged after, so it is true when read.
  const closed = closeGracefully(env.shutdownGraceMs);
  logger.info("stopping", { signal, graceMs: env.shutdownGraceMs });
  void closed.then(async ({ inFlight }) => {
    logger.info("stopped", { finishedInFlight: inFlight });
    await upstream.close();
    process.exit(0);
  });
}

process.on("SIGINT", () => shutdown("SIGINT"));
process.on("SIGTERM", () => shutdown("SIGTERM"));
// Key rotation without a restart: docs/operations.md, "Rotating the proxy's key".
process.on("SIGHUP", () => apiKey.reload());
