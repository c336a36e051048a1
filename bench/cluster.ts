// The cluster's throughput, for `npm run bench`: `startCluster` (scripts/cluster, as `npm run
// cluster` starts it: PostgreSQL, Redis, 3 service replicas, 2 proxy replicas, nginx with TLS)
// in a folder of its own, a fleet user signed in through its https URL (the drills' client,
// which trusts the cluster's certificate), one check through that client, then signed-in single
// insurance checks through nginx under the same load as the single machine's `proxy_rps`
// (autocannon, 64 connections, random registrations of the cluster's own fleet), bounded in time
// and in requests. Its figure beside `proxy_rps` is a ratio: on one 2-core machine the five Node
// processes, nginx, PostgreSQL and Redis share the cores one proxy and one service had, so it
// shows what the path costs, not what scale-out buys (docs/performance.md).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLIENT_HEADER, PROXY_PREFIX, paths } from "@vics/shared";
import { DEFAULT_USER_LIMITS } from "../proxy/src/team/limits/user-limits.ts";
import { drillClient, signedInUser } from "../scripts/cluster/drill-client.ts";
import { findNginx } from "../scripts/cluster/nginx.ts";
import { startCluster } from "../scripts/cluster/start-cluster.ts";
import { redisServerCommand } from "@vics/server-kit/testing/redis-server";
import { postgresMissing } from "./engines.ts";
import { CONNECTIONS, loadScenario } from "./load.ts";
import type { OpenResources } from "./open-resources.ts";
import { formatNumber } from "./report.ts";
import type { Recorder } from "./recorder.ts";

export const CLUSTER_FIGURES = [
  "cluster_rps",
  "cluster_p50_ms",
  "cluster_p99_ms",
  "cluster_node_cpu_us_per_req",
];

/** Registrations of the cluster's own fleet the checks draw from. */
const SAMPLE = 10_000;

/**
 * The Node replicas' CPU per request together; undefined unless /proc was read for every one
 * of the `replicas` (a replica restarted mid-run has a new pid, and its share would be missing).
 */
export function summedCpu(
  cpuUsPerRequest: Record<string, number>,
  replicas: number,
): number | undefined {
  const values = Object.values(cpuUsPerRequest);
  return values.length === 0 || values.length !== replicas
    ? undefined
    : values.reduce((sum, value) => sum + value, 0);
}

/**
 * Why this machine cannot start the cluster (a tool not installed), or undefined. `nginx` is
 * for tests.
 */
export function clusterMissing({
  nginx = findNginx,
}: {
  nginx?: () => string | undefined;
} = {}): string | undefined {
  if (!nginx()) return "nginx is not installed";
  const postgres = postgresMissing();
  if (postgres) return postgres;
  const redis = spawnSync(redisServerCommand(), ["--version"]);
  if (redis.error) return "Redis is not installed";
  return undefined;
}

export async function clusterFigures(
  context: { quick: boolean; resources: OpenResources },
  recorder: Recorder,
): Promise<void> {
  const { figures, say } = recorder;
  const missing = clusterMissing();
  if (missing) return recorder.skip(CLUSTER_FIGURES, missing);
  const plan = {
    ...(context.quick
      ? { warmUpSeconds: 2, seconds: 5 }
      : { warmUpSeconds: 3, seconds: 15 }),
    // One fleet user sends every check: stay under their limit of a minute.
    maxRequests: DEFAULT_USER_LIMITS.fleet * 0.9,
  };

  await recorder.scenario(
    CLUSTER_FIGURES,
    async () => {
      // A folder of its own: PostgreSQL runs as its own user, which must pass through to it.
      const dataDir = mkdtempSync(join(tmpdir(), "vics-bench-cluster-"));
      const started = performance.now();
      let cluster: Awaited<ReturnType<typeof startCluster>> | undefined;
      const close = context.resources.add(async () => {
        await cluster?.close();
        rmSync(dataDir, { recursive: true, force: true });
      });
      try {
        cluster = await startCluster({ dataDir, httpsPort: 0, quiet: true });
        say(
          `  started in ${((performance.now() - started) / 1000).toFixed(1)} s: ${cluster.services.length} service and ${cluster.proxies.length} proxy replicas, PostgreSQL, Redis, nginx at ${cluster.url}`,
        );
        const { rows } = await cluster.postgres.query(
          "SELECT registration FROM vehicles ORDER BY random() LIMIT $1",
          "vics_service",
          [SAMPLE],
        );
        const sample = rows.map((row: { registration: string }) =>
          String(row.registration),
        );
        const pick = () =>
          sample[Math.floor(Math.random() * sample.length)] ?? "";

        // Signed in, and one check, through a client that verifies the certificate.
        const client = drillClient(cluster);
        let cookie: string;
        try {
          ({ cookie } = await signedInUser(cluster, client, "fleet"));
          const check = await client.fetch(
            PROXY_PREFIX + paths.insurance(pick()),
            { cookie },
          );
          const body = await check.text();
          if (check.status !== 200)
            throw new Error(
              `a check through the cluster answered ${check.status}: ${body.slice(0, 200)}`,
            );
        } finally {
          await client.close();
        }

        const pids: Record<string, number | undefined> = {};
        for (const replica of [...cluster.services, ...cluster.proxies])
          pids[replica.name] = replica.pid;
        const run = await loadScenario(
          "cluster insurance",
          {
            url: cluster.url,
            headers: { [CLIENT_HEADER]: "bench", Cookie: cookie },
            path: () => PROXY_PREFIX + paths.insurance(pick()),
            tls: {
              options: { ca: readFileSync(cluster.certificate) },
              servername: "localhost",
            },
          },
          plan,
          pids,
        );
        figures.cluster_rps = run.rps;
        figures.cluster_p50_ms = run.p50Ms;
        figures.cluster_p99_ms = run.p99Ms;
        figures.cluster_node_cpu_us_per_req =
          summedCpu(run.cpuUsPerRequest, Object.keys(pids).length) ?? null;
        const proxyRps = figures.proxy_rps;
        const beside =
          typeof proxyRps === "number" && proxyRps > 0
            ? `${formatNumber(run.rps / proxyRps, 2)} × the single machine's proxy_rps (${Math.round(proxyRps)} req/s)`
            : "proxy_rps not measured";
        say(
          `  ${Math.round(run.rps)} signed-in checks/s through https, ${CONNECTIONS} connections, p50 ${run.p50Ms} ms, p99 ${run.p99Ms} ms (${run.requests} requests): ${beside}; the five Node replicas' CPU ${Math.round(figures.cluster_node_cpu_us_per_req ?? NaN)} µs/request together`,
        );
      } finally {
        await close();
      }
    },
    "the cluster: signed-in checks through nginx's https, 3 services, 2 proxies, PostgreSQL, Redis",
  );
}
