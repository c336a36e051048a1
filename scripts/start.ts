// `npm start`: the whole product on one machine. Builds the web app if it is missing, starts
// the service (which creates and seeds its database on first run), makes sure the proxy has a
// demo API key kept under data/, starts the proxy and prints the URL to open.
import { existsSync, mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { HEALTH_PATH } from "@vics/shared";
import { startEnv } from "./start/env.ts";
import { ensureProxyKey } from "./start/proxy-key.ts";
import {
  runToEnd,
  startChild,
  stopAll,
  waitForHttp,
} from "./start/processes.ts";

const root = resolve(import.meta.dirname, "..");
const env = startEnv(root);

// Registered before any child starts, so Ctrl-C at any point stops everything cleanly.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => void stopAll().then(() => process.exit(0)));
}

if (!existsSync(resolve(root, "web/dist/index.html"))) {
  console.log("Building the web app (first run)...");
  await runToEnd("npm", ["run", "build", "-w", "@vics/web"], root);
}

mkdirSync(env.dataDir, { recursive: true });
const serviceUrl = `http://127.0.0.1:${env.servicePort}`;
const service = startChild("service", ["service/src/index.ts"], root, {
  HOST: "127.0.0.1",
  PORT: String(env.servicePort),
  DATABASE_PATH: env.databasePath,
});
await waitForHttp(serviceUrl + HEALTH_PATH, service);

const keyFile = await ensureProxyKey({
  root,
  serviceUrl,
  dataDir: env.dataDir,
  databasePath: env.databasePath,
});

const proxy = startChild("proxy", ["proxy/src/index.ts"], root, {
  HOST: env.host,
  PORT: String(env.port),
  UPSTREAM_URL: serviceUrl,
  UPSTREAM_API_KEY_FILE: keyFile,
  UPSTREAM_API_KEY: undefined,
  ...(env.allowRemote ? { ALLOW_REMOTE: "true" } : {}),
});
const appUrl = `http://${env.host === "0.0.0.0" ? "127.0.0.1" : env.host}:${env.port}/`;
await waitForHttp(appUrl, proxy);

console.log(`\nVICS is running. Open ${appUrl}\nPress Ctrl-C to stop.\n`);
