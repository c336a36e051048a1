// The only place `npm start` reads its environment: PORT, SERVICE_PORT, HOST, DATA_DIR,
// METRICS_PORT and SERVICE_METRICS_PORT, and PUBLIC_ORIGIN for the address it prints (the proxy
// reads it too).
// A relative DATA_DIR resolves against the repository root, like every path in VICS's
// configuration, whatever the working directory.
import { join, resolve } from "node:path";
import { wholeNumber } from "@vics/server-kit/env-fields";

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
  /**
   * The metrics listeners' ports (the METRICS_PORT each server reads); a server without one has
   * no metrics. The proxy's is METRICS_PORT; the service's SERVICE_METRICS_PORT, else, with
   * METRICS_PORT set, the port after it (0 stays 0: a free port each). Two processes on one
   * machine cannot share a port.
   */
  metricsPorts: { proxy?: number; service?: number };
}

/** The environment read, or what is wrong with it. */
export type StartEnvResult =
  { env: StartEnv; problems?: never } | { problems: string[] };

export function readStartEnv(
  root: string,
  source: NodeJS.ProcessEnv,
): StartEnvResult {
  const problems: string[] = [];
  const set = (name: string) => (source[name] ?? "") !== "";
  // Read as the servers read a port (digits only: not "1e4" nor " 9464 "), in npm start's words.
  const port = (name: string, fallback: number, lowest: 0 | 1 = 1): number => {
    const read = wholeNumber(fallback, { min: lowest, max: 65535 }).safeParse(
      source[name],
    );
    if (read.success) return read.data;
    problems.push(
      `${name} must be a port number from ${lowest} to 65535 (got "${source[name]}")`,
    );
    return Number.NaN;
  };
  const metricsPorts = (): StartEnv["metricsPorts"] => {
    const proxy = set("METRICS_PORT") ? port("METRICS_PORT", 0, 0) : undefined;
    if (set("SERVICE_METRICS_PORT"))
      return { proxy, service: port("SERVICE_METRICS_PORT", 0, 0) };
    if (proxy === undefined) return {};
    if (proxy === 65535) {
      problems.push(
        "METRICS_PORT is 65535: there is no next port for the service's metrics; set SERVICE_METRICS_PORT",
      );
      return { proxy };
    }
    return { proxy, service: proxy === 0 ? 0 : proxy + 1 };
  };
  const dataDir = resolve(root, source.DATA_DIR || "data");
  const env: StartEnv = {
    port: port("PORT", 3000),
    servicePort: port("SERVICE_PORT", 3001),
    host: source.HOST || "127.0.0.1",
    publicOrigin: source.PUBLIC_ORIGIN || undefined,
    dataDir,
    databasePath: join(dataDir, "vics.sqlite"),
    proxyDatabasePath: join(dataDir, "proxy.sqlite"),
    logsDir: join(dataDir, "logs"),
    metricsPorts: metricsPorts(),
  };
  // Each port its own; but 0, which asks for a free one each time.
  const ports: [string, number | undefined][] = [
    ["PORT", env.port],
    ["SERVICE_PORT", env.servicePort],
    ["METRICS_PORT", env.metricsPorts.proxy],
    [
      set("SERVICE_METRICS_PORT")
        ? "SERVICE_METRICS_PORT"
        : "the service's metrics port (METRICS_PORT + 1)",
      env.metricsPorts.service,
    ],
  ];
  ports.forEach(([name, value], i) => {
    for (const [other, otherValue] of ports.slice(i + 1))
      if (value !== undefined && value !== 0 && value === otherValue)
        problems.push(`${name} and ${other} must differ (both ${value})`);
  });
  return problems.length > 0 ? { problems } : { env };
}

/** The environment `npm start` runs with; exits 1, saying why, when it is wrong. */
export function startEnv(root: string): StartEnv {
  const result = readStartEnv(root, process.env);
  if (result.problems === undefined) return result.env;
  console.error(
    `npm start: invalid environment:\n  - ${result.problems.join("\n  - ")}`,
  );
  process.exit(1);
}
