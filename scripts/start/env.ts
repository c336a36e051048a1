// The only place `npm start` reads its environment: PORT, SERVICE_PORT, HOST, DATA_DIR, and
// PUBLIC_ORIGIN for the address it prints (the proxy reads it too).
// A relative DATA_DIR resolves against the repository root, like every path in VICS's
// configuration, whatever the working directory.
import { join, resolve } from "node:path";

export interface StartEnv {
  port: number;
  servicePort: number;
  host: string;
  /** PUBLIC_ORIGIN: where browsers reach the app, when it is not the loopback address. */
  publicOrigin: string | undefined;
  dataDir: string;
  databasePath: string;
  /** The proxy's own store: users, sessions and the audit log. */
  proxyDatabasePath: string;
  logsDir: string;
}

function port(name: string, fallback: number, problems: string[]): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 65535) {
    problems.push(
      `${name} must be a port number from 1 to 65535 (got "${raw}")`,
    );
  }
  return value;
}

export function startEnv(root: string): StartEnv {
  const problems: string[] = [];
  const dataDir = resolve(root, process.env.DATA_DIR || "data");
  const env: StartEnv = {
    port: port("PORT", 3000, problems),
    servicePort: port("SERVICE_PORT", 3001, problems),
    host: process.env.HOST || "127.0.0.1",
    publicOrigin: process.env.PUBLIC_ORIGIN || undefined,
    dataDir,
    databasePath: join(dataDir, "vics.sqlite"),
    proxyDatabasePath: join(dataDir, "proxy.sqlite"),
    logsDir: join(dataDir, "logs"),
  };
  if (env.port === env.servicePort)
    problems.push("PORT and SERVICE_PORT must differ");
  if (problems.length > 0) {
    console.error(
      `npm start: invalid environment:\n  - ${problems.join("\n  - ")}`,
    );
    process.exit(1);
  }
  return env;
}
