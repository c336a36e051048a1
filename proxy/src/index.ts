import { serve } from "@hono/node-server";
import { HEALTH_PATH } from "@vics/shared";
import { createProxyApp } from "./app.ts";
import { loadEnv } from "./env.ts";
import { registrationHasher } from "@vics/shared/node";
import { createLogger } from "./logger.ts";
import { webAppIsBuilt } from "./static-site.ts";

const env = loadEnv();
const logger = createLogger({ level: env.logLevel, secrets: [env.apiKey] });

if (!webAppIsBuilt(env.webRoot)) {
  logger.warn("the web app is not built: run `npm run build -w @vics/web`", {
    webRoot: env.webRoot,
  });
}

const app = createProxyApp({
  upstreamUrl: env.upstreamUrl,
  apiKey: env.apiKey,
  fetch: globalThis.fetch,
  timeoutMs: env.timeoutMs,
  webRoot: env.webRoot,
  logger,
  hashRegistration: registrationHasher(env.logHashKey),
});

const server = serve(
  { fetch: app.fetch, hostname: env.host, port: env.port },
  (address) => {
    const host =
      address.family === "IPv6" ? `[${address.address}]` : address.address;
    logger.info("listening", {
      url: `http://${host}:${address.port}/`,
      upstream: env.upstreamUrl,
      webRoot: env.webRoot,
    });
    void warnIfUpstreamDown();
  },
);

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

let stopping = false;
function shutdown(signal: string) {
  // npm start's children get Ctrl-C's SIGINT from the terminal and a SIGTERM from npm start.
  if (stopping) return;
  stopping = true;
  logger.info("stopping", { signal });
  server.close(() => process.exit(0));
  // Browsers hold keep-alive connections open; do not wait for them to go idle.
  if ("closeAllConnections" in server) server.closeAllConnections();
}

process.on("SIGINT", () => shutdown("SIGINT"));
process.on("SIGTERM", () => shutdown("SIGTERM"));
