// `npm run cluster` itself, as a person runs it in a terminal: the command prints the https URL,
// the cluster answers there, its Prometheus (printed too) scrapes every replica and nginx, and Ctrl-C (SIGINT to the whole foreground process group, as a
// terminal sends it) stops all of it quietly: one line says so, nothing warns or errs, nginx,
// the five replicas, PostgreSQL and Redis no longer listen on the ports it printed, and no
// process it started is left, also when Ctrl-C comes while the cluster is still starting, and
// when the terminal is closed instead (SIGHUP).
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { READY_PATH } from "@vics/shared";
import { freePort, listening } from "@vics/shared/testing/free-port";
import { childPids, isRunning } from "./child-pids.ts";
import { drillClient } from "./drill-client.ts";
import { ROOT } from "./start-cluster.ts";

const dataDir = mkdtempSync(join(tmpdir(), "vics-cluster-command-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** What the summary says of Prometheus: its URL, the replicas' metrics ports, the exporter's. */
function printedPrometheus(summary: string) {
  const match =
    /Prometheus: (http:\/\/127\.0\.0\.1:(\d+))\/ scrapes every 2 s the services' metrics \(ports ([\d, ]+)\), the proxies'\s+\(ports ([\d, ]+)\) and nginx's stub_status through prometheus-nginx-exporter \(port (\d+)\)/.exec(
      summary,
    );
  const ports = (list: string | undefined) =>
    (list ?? "").split(", ").map(Number);
  return {
    url: match?.[1] ?? "",
    ports: [match?.[2], match?.[5]].map(Number),
    services: ports(match?.[3]),
    proxies: ports(match?.[4]),
    exporter: Number(match?.[5]),
  };
}

/**
 * Every port the command's summary names: https, the replicas, PostgreSQL and Redis, nginx's
 * http port and its listener for the services, the replicas' metrics listeners, Prometheus and
 * nginx's exporter.
 */
function printedPorts(summary: string): number[] {
  const https = /VICS cluster: https:\/\/127\.0\.0\.1:(\d+)\//.exec(summary);
  const replicas = [...summary.matchAll(/(?:proxies|services) \(([\d, ]+)\)/g)];
  const servers = /PostgreSQL on port (\d+), Redis on port (\d+)/.exec(summary);
  const nginx =
    /http port (\d+) redirects to https, and the proxies reach the services at http:\/\/127\.0\.0\.1:(\d+)\./.exec(
      summary,
    );
  return [
    https?.[1],
    ...replicas.flatMap((match) => match[1]!.split(", ")),
    servers?.[1],
    servers?.[2],
    nginx?.[1],
    nginx?.[2],
  ]
    .map(Number)
    .concat(
      printedPrometheus(summary).services,
      printedPrometheus(summary).proxies,
      printedPrometheus(summary).ports,
    );
}

interface Series {
  metric: Record<string, string>;
  value: [number, string];
}

/** An instant query of Prometheus's HTTP API: each series' labels and value. */
async function query(prometheus: string, promql: string): Promise<Series[]> {
  const response = await fetch(
    `${prometheus}/api/v1/query?query=${encodeURIComponent(promql)}`,
  );
  const body = (await response.json()) as {
    status: string;
    data: { result: Series[] };
  };
  expect(body.status, JSON.stringify(body)).toBe("success");
  return body.data.result;
}

/**
 * `promql`'s series, each as `labels` of it joined by spaces with its value last, sorted,
 * once they equal `expected`: Prometheus scrapes every 2 s, so it asks again for up to 60 s,
 * then returns what it last got, for the test to show.
 */
async function seriesOnceScraped(
  prometheus: string,
  promql: string,
  labels: string[],
  expected: string[],
): Promise<string[]> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const found = (await query(prometheus, promql))
      .map((series) =>
        [...labels.map((name) => series.metric[name]), series.value[1]].join(
          " ",
        ),
      )
      .sort();
    if (found.join("\n") === [...expected].sort().join("\n")) return found;
    if (Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** The process and everything below it, children of children included. */
function processTree(pid: number): number[] {
  return [pid, ...childPids(pid).flatMap(processTree)];
}

/** Running processes whose command line names the folder (PostgreSQL's -D, nginx's -p). */
function processesNaming(folder: string): string[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name) && isRunning(Number(name)))
    .flatMap((name) => {
      try {
        const command = readFileSync(`/proc/${name}/cmdline`, "utf8");
        return command.includes(folder)
          ? [`${name}: ${command.replaceAll("\0", " ")}`]
          : [];
      } catch {
        return [];
      }
    });
}

/**
 * Nothing the command started is left: none of `pids` runs, no process names the data folder,
 * none of `ports` is listened on, and PostgreSQL stopped cleanly (it removes its lock file then).
 */
async function expectNothingLeft(pids: number[], ports: number[] = []) {
  expect(pids.filter(isRunning)).toEqual([]);
  expect(processesNaming(dataDir)).toEqual([]);
  for (const port of ports) expect(await listening(port)).toBe(false);
  expect(() =>
    readFileSync(join(dataDir, "postgres/postmaster.pid")),
  ).toThrow();
}

interface Run {
  child: ChildProcess;
  output: () => string;
  /** Waits until the output holds `text`; fails when the command ends first. */
  waitFor(text: string): Promise<void>;
  /**
   * Ctrl-C as a terminal sends it: SIGINT to the command's whole process group. Resolves, once
   * the command has exited, with its exit code and every process it ran from Ctrl-C on.
   */
  ctrlC(): Promise<{ code: number | null; pids: number[] }>;
  /**
   * The terminal closed: what it printed to can no longer be read (its pipes are closed here),
   * and SIGHUP goes to the command's whole process group. Resolves as ctrlC does.
   */
  hangUp(): Promise<{ code: number | null; pids: number[] }>;
}

const runs: ChildProcess[] = [];
afterEach(() => {
  // A failed assertion leaves no cluster behind.
  for (const child of runs.splice(0))
    if (child.exitCode === null && child.signalCode === null)
      process.kill(-child.pid!, "SIGINT");
});

function runCluster(httpsPort: number): Run {
  const child = spawn(process.execPath, ["scripts/cluster.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      CLUSTER_DIR: dataDir,
      CLUSTER_PORT: String(httpsPort),
    },
    stdio: ["ignore", "pipe", "pipe"],
    // A process group of its own, as a terminal gives the command it runs.
    detached: true,
  });
  runs.push(child);
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, "exit");
  return {
    child,
    output: () => output,
    async waitFor(text) {
      const deadline = Date.now() + 240_000;
      while (!output.includes(text)) {
        if (Date.now() > deadline || child.exitCode !== null)
          throw new Error(`no "${text}" from npm run cluster:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    ctrlC: () => signalGroup("SIGINT"),
    hangUp() {
      child.stdout!.destroy();
      child.stderr!.destroy();
      return signalGroup("SIGHUP");
    },
  };

  /** Sends `signal` to the command's group; its exit code and every process it ran since. */
  async function signalGroup(signal: NodeJS.Signals) {
    const pids = new Set(processTree(child.pid!));
    process.kill(-child.pid!, signal);
    // Whatever it starts or stops from here on, until it exits.
    while (child.exitCode === null && child.signalCode === null) {
      for (const pid of processTree(child.pid!)) pids.add(pid);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const [code] = await exited;
    return { code: code as number | null, pids: [...pids] };
  }
}

/** What the command printed from Ctrl-C on, line by line, empty lines left out. */
const afterCtrlC = (output: string, from: number) =>
  output
    .slice(from)
    .split("\n")
    .filter((line) => line.trim() !== "");

const STOPPING =
  "cluster: stopping Prometheus, nginx, the replicas, Redis and PostgreSQL... stopped.";

describe("npm run cluster", () => {
  it("prints the https URL it answers at, its Prometheus finds every replica's series and nginx's, and Ctrl-C stops everything it started, quietly", async () => {
    const httpsPort = await freePort();
    const run = runCluster(httpsPort);
    await run.waitFor("Ctrl-C stops everything.");
    const output = run.output();
    const url = `https://127.0.0.1:${httpsPort}`;
    expect(output).toContain(`VICS cluster: ${url}/`);
    const ports = printedPorts(output);
    expect(ports).toHaveLength(17);
    expect(ports.every((port) => Number.isInteger(port) && port > 0)).toBe(
      true,
    );
    for (const port of ports) expect(await listening(port)).toBe(true);

    // Through the printed URL, trusting the certificate it made.
    const client = drillClient({
      url,
      certificate: join(dataDir, "tls/vics-cluster.crt"),
    });
    try {
      const ready = await client.fetch(READY_PATH);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: "ready" });
    } finally {
      await client.close();
    }

    // Prometheus scrapes each replica's metrics listener and nginx's exporter: every target up,
    // each replica's request counts there (the cluster's readiness checks counted at least
    // GET /ready on each), and nginx's counters.
    const prometheus = printedPrometheus(output);
    const instance = (port: number) => `127.0.0.1:${port}`;
    const replicas = [
      ...prometheus.services.map((port) => `vics-service ${instance(port)}`),
      ...prometheus.proxies.map((port) => `vics-proxy ${instance(port)}`),
    ];
    const nginxExporter = `nginx ${instance(prometheus.exporter)}`;
    expect(replicas).toHaveLength(5);
    expect(
      await seriesOnceScraped(
        prometheus.url,
        "up",
        ["job", "instance"],
        [...replicas, nginxExporter].map((target) => `${target} 1`),
      ),
    ).toEqual([...replicas, nginxExporter].map((t) => `${t} 1`).sort());
    // "vics-service 127.0.0.1:port service 1": the job, the replica, its server label.
    const counted = replicas.map(
      (target) => `${target} ${target.split(" ")[0]!.slice("vics-".length)} 1`,
    );
    expect(
      await seriesOnceScraped(
        prometheus.url,
        "count by (job, instance, server) (http_requests_total) > bool 0",
        ["job", "instance", "server"],
        counted,
      ),
    ).toEqual([...counted].sort());
    expect(
      await seriesOnceScraped(
        prometheus.url,
        "nginx_up",
        ["job", "instance"],
        [`${nginxExporter} 1`],
      ),
    ).toEqual([`${nginxExporter} 1`]);

    const from = run.output().length;
    const { code, pids } = await run.ctrlC();
    expect(code).toBe(0);
    expect(afterCtrlC(run.output(), from)).toEqual([STOPPING]);
    // nginx and its workers, PostgreSQL and its backends, Redis, the five replicas: all gone.
    expect(pids.length).toBeGreaterThan(10);
    await expectNothingLeft(pids, ports);
  }, 300_000);

  it("Ctrl-C while the replicas start stops what has started, quietly, and leaves nothing running", async () => {
    // The second run on the same folder: PostgreSQL is made and seeded already.
    const run = runCluster(await freePort());
    await run.waitFor("cluster: starting 3 service replicas together");
    const from = run.output().length;
    const { code, pids } = await run.ctrlC();
    expect(code).toBe(0);
    // The summary may have come out first, if the replicas were quicker than Ctrl-C.
    const after = afterCtrlC(run.output(), from);
    expect(after.at(-1)).toBe(STOPPING);
    expect(after.join("\n")).not.toMatch(/error|warn|died/i);
    await expectNothingLeft(pids);
  }, 300_000);

  it("closing its terminal (SIGHUP) stops everything it started, as Ctrl-C does", async () => {
    const run = runCluster(await freePort());
    await run.waitFor("Ctrl-C stops everything.");
    const ports = printedPorts(run.output());
    expect(ports).toHaveLength(17);
    const { code, pids } = await run.hangUp();
    expect(code).toBe(0);
    expect(pids.length).toBeGreaterThan(10);
    // Stopped cleanly, not killed on the way out: PostgreSQL removed its lock file.
    await expectNothingLeft(pids, ports);
  }, 300_000);
});
