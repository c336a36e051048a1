// Prometheus for `npm run cluster`: Debian's prometheus, run on the rendered
// deploy/prometheus/prometheus.yml, scraping every replica's metrics listener and nginx's
// stub_status through Debian's prometheus-nginx-exporter. Both on loopback ports of the
// cluster's own and in its data folder, never the package's port 9090 or /var/lib/prometheus.
import type { ChildProcess } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync } from "node:fs";
import { answersOk, spawnInGroup, stopChild } from "./process-group.ts";

/** Debian's binaries, unless PROMETHEUS or PROMETHEUS_NGINX_EXPORTER names another. */
export const prometheusBinary = (): string =>
  process.env.PROMETHEUS || "/usr/bin/prometheus";
export const nginxExporterBinary = (): string =>
  process.env.PROMETHEUS_NGINX_EXPORTER || "/usr/bin/prometheus-nginx-exporter";

/** Why the cluster cannot run Prometheus here, or undefined when it can. */
export function prometheusMissing(
  exists: (path: string) => boolean = existsSync,
): string | undefined {
  const missing = [prometheusBinary(), nginxExporterBinary()].filter(
    (path) => !exists(path),
  );
  return missing.length === 0
    ? undefined
    : `${missing.join(" and ")} not found: apt-get install -y prometheus prometheus-nginx-exporter (or set PROMETHEUS, PROMETHEUS_NGINX_EXPORTER)`;
}

export interface DaemonOptions {
  name: string;
  binary: string;
  args: string[];
  /** Its output, appended. */
  logFile: string;
  /** Answers 200 here once it is up. */
  readyUrl: string;
}

/**
 * One long-running program of the cluster's: in a process group of its own (Ctrl-C reaches
 * the cluster, which stops it in order), killed with the cluster's process whatever happens.
 */
export class Daemon {
  private child: ChildProcess | undefined;
  private readonly options: DaemonOptions;

  constructor(options: DaemonOptions) {
    this.options = options;
  }

  async start(): Promise<void> {
    const { name, binary, args, logFile, readyUrl } = this.options;
    const log = createWriteStream(logFile, { flags: "a" });
    let recent = "";
    const child = spawnInGroup(binary, args, {
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child = child;
    for (const stream of [child.stdout!, child.stderr!])
      stream.on("data", (chunk: Buffer) => {
        log.write(chunk);
        recent = (recent + chunk.toString()).slice(-2000);
      });
    child.once("exit", () => log.end());
    let spawnError: unknown;
    child.once("error", (error) => (spawnError = error));
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (spawnError !== undefined || child.exitCode !== null)
        throw new Error(
          `${name} did not start (${String(spawnError ?? `exit ${child.exitCode}`)}):\n${recent}`,
        );
      if (await answersOk(readyUrl)) return;
      if (Date.now() > deadline)
        throw new Error(`${name} was not ready within 30 s:\n${recent}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** SIGTERM (Prometheus writes its head block and exits), SIGKILL after 10 s. */
  async stop(): Promise<void> {
    await stopChild(this.child, "SIGTERM", 10_000);
  }
}

export interface Monitoring {
  /** http://127.0.0.1:port, Prometheus's page and HTTP API. */
  url: string;
  port: number;
  exporterPort: number;
  stop(): Promise<void>;
}

/**
 * nginx's exporter, then Prometheus on `configFile`, its data in `dataDir`. On a failure what
 * started is stopped.
 */
export async function startMonitoring(options: {
  configFile: string;
  dataDir: string;
  logsDir: string;
  port: number;
  exporterPort: number;
  nginxStatusUrl: string;
}): Promise<Monitoring> {
  const { port, exporterPort, logsDir } = options;
  mkdirSync(options.dataDir, { recursive: true });
  const exporter = new Daemon({
    name: "prometheus-nginx-exporter",
    binary: nginxExporterBinary(),
    // `--name=value`: the form both Debian 12's exporter (0.11, Go's flags) and later ones take.
    args: [
      `--nginx.scrape-uri=${options.nginxStatusUrl}`,
      `--web.listen-address=127.0.0.1:${exporterPort}`,
    ],
    logFile: `${logsDir}/nginx-exporter.log`,
    readyUrl: `http://127.0.0.1:${exporterPort}/metrics`,
  });
  const prometheus = new Daemon({
    name: "prometheus",
    binary: prometheusBinary(),
    args: [
      `--config.file=${options.configFile}`,
      `--storage.tsdb.path=${options.dataDir}`,
      `--storage.tsdb.retention.time=7d`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    logFile: `${logsDir}/prometheus.log`,
    readyUrl: `http://127.0.0.1:${port}/-/ready`,
  });
  const stop = async () => {
    await prometheus.stop();
    await exporter.stop();
  };
  try {
    await exporter.start();
    await prometheus.start();
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `http://127.0.0.1:${port}`, port, exporterPort, stop };
}
