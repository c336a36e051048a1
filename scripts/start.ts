// `npm start`: the whole product on one machine. Builds the web app when its sources changed,
// starts the service (which creates and seeds its database on first run), makes sure the
// proxy has a demo API key kept under data/, starts the proxy, and prints what runs where and
// the URL, once. The children's logs go to data/logs/; warnings and errors also show here.
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { appUrl } from "./start/app-url.ts";
import { ownerOnlyData } from "./start/data-permissions.ts";
import { startEnv } from "./start/env.ts";
import { type Child, startChild, stopAll } from "./start/processes.ts";
import { ensureProxyKey } from "./start/proxy-key.ts";
import { shownPath, startSummary } from "./start/summary.ts";
import {
  buildWebApp,
  builtAt,
  sourceTimes,
  webBuildIsStale,
} from "./start/web-build.ts";

const root = resolve(import.meta.dirname, "..");
const env = startEnv(root);

// Registered before any child starts, so Ctrl-C at any point stops everything cleanly.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => void stopAll().then(() => process.exit(0)));
}

// Before anything writes there: the data folder, its logs and its files are this user's alone.
const readableByOthers = ownerOnlyData(root, env.dataDir);
if (readableByOthers) console.warn(readableByOthers);

if (webBuildIsStale(builtAt(root), sourceTimes(root))) await buildWebApp(root);

const logFile = (label: string) => join(env.logsDir, `${label}.log`);
const child = (label: string, childEnv: Record<string, string | undefined>) =>
  startChild({
    label,
    script: `${label}/src/index.ts`,
    cwd: root,
    env: childEnv,
    logFile: logFile(label),
    logFileShown: shownPath(root, logFile(label)),
  });

if (!existsSync(env.databasePath))
  console.log(
    "Creating and seeding the database (first start, a few seconds)...",
  );
// One log-hash key for both, for this run: a vehicle's lines in the two logs hash alike.
const logHashKey = randomBytes(24).toString("base64url");
const service = child("service", {
  LOG_HASH_KEY: logHashKey,
  HOST: "127.0.0.1",
  PORT: String(env.servicePort),
  DATABASE_PATH: env.databasePath,
  // Its own metrics port: the proxy's METRICS_PORT is not for both (start/env.ts).
  METRICS_PORT: env.metricsPorts.service?.toString(),
});
const serviceReady = await service.waitFor("listening");
const serviceUrl = String(serviceReady.url);
const seeded = service.lastEvent("database created and seeded");

const key = await ensureProxyKey({
  root,
  serviceUrl,
  keyFile: join(env.dataDir, "proxy-api-key"),
  databaseEnv: { DATABASE_PATH: env.databasePath },
  namePrefix: "proxy-demo",
});

// The watched fleets' re-checks spend a key of their own, so they never starve staff checks.
const watchKey = await ensureProxyKey({
  root,
  serviceUrl,
  keyFile: join(env.dataDir, "watch-api-key"),
  databaseEnv: { DATABASE_PATH: env.databasePath },
  namePrefix: "watch-demo",
});

const proxy = child("proxy", {
  LOG_HASH_KEY: logHashKey,
  HOST: env.host,
  PORT: String(env.port),
  UPSTREAM_URL: serviceUrl,
  UPSTREAM_API_KEY_FILE: key.keyFile,
  UPSTREAM_API_KEY: undefined,
  WATCH_API_KEY_FILE: watchKey.keyFile,
  WATCH_API_KEY: undefined,
  PROXY_DATABASE_PATH: env.proxyDatabasePath,
  METRICS_PORT: env.metricsPorts.proxy?.toString(),
});
await proxy.waitFor("listening");
// Logged before each server listens, with the port it took (0 asks for a free one); at a
// LOG_LEVEL above info, the port asked for.
const metricsUrl = (child: Child, port: number | undefined) => {
  if (port === undefined) return undefined;
  const logged = child.lastEvent("metrics listening")?.url;
  if (logged !== undefined) return String(logged);
  if (port === 0) return "a free port (its log says which at LOG_LEVEL=info)";
  const host = process.env.METRICS_HOST || "127.0.0.1";
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}/metrics`;
};

console.log(
  startSummary({
    root,
    appUrl: appUrl(env),
    serviceUrl,
    sandbox: serviceReady.sandbox === true,
    databasePath: env.databasePath,
    seededInMs:
      typeof seeded?.durationMs === "number" ? seeded.durationMs : undefined,
    keyFile: key.keyFile,
    keyStatus: key.status,
    watchKeyFile: watchKey.keyFile,
    watchKeyStatus: watchKey.status,
    logFiles: [logFile("service"), logFile("proxy")],
    metricsUrls: {
      service: metricsUrl(service, env.metricsPorts.service),
      proxy: metricsUrl(proxy, env.metricsPorts.proxy),
    },
  }),
);
