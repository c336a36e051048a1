// The cluster's throughput, for `npm run bench`: `startCluster` (scripts/cluster, as `npm run
// cluster` starts it: PostgreSQL, Redis, 3 service replicas, 2 proxy replicas, nginx with TLS)
// in a folder of its own, a fleet user signed in through its https URL (the drills' client,
// which trusts the cluster's certificate), one check through that client, then signed-in single
// insurance checks through nginx under the same load as the single machine's `proxy_rps`
// (autocannon, 64 connections, random registrations of the cluster's own fleet), bounded in time
// and in requests. Its figure beside `proxy_rps` is a ratio: on one 2-core machine the five Node
// processes, nginx, PostgreSQL and Redis share the cores one proxy and one service had, so it
// shows what the path costs, not what scale-out buys (docs/performance.md). The same cluster with
// one replica of each is measured after it: the same hops (nginx, PostgreSQL, Redis) without
// five replicas contending for two cores, so the two runs split the cluster's cost between them.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLIENT_HEADER, PROXY_PREFIX, paths } from "@vics/shared";
import { DEFAULT_USER_LIMITS } from "../proxy/src/team/limits/user-limits.ts";
import { drillClient, signedInUser } from "../scripts/cluster/drill-client.ts";
import { findNginx } from "../scripts/cluster/nginx.ts";
import {
  startCluster,
  type Cluster,
} from "../scripts/cluster/start-cluster.ts";
import { redisServerCommand } from "@vics/server-kit/testing/redis-server";
import { postgresMissing } from "./engines.ts";
import {
  enablePgStatements,
  perRequest,
  pgStatementCounts,
  PG_STAT_STATEMENTS,
  postmasterPid,
  redisCounter,
  type StoreCounts,
} from "./cluster-stores.ts";
import { cpuSeconds } from "./cpu.ts";
import { treeCpuSeconds } from "./process-tree-cpu.ts";
import {
  CONNECTIONS,
  loadScenario,
  randomPick,
  type LoadOptions,
} from "./load.ts";
import type { OpenResources } from "./open-resources.ts";
import { formatNumber } from "./report.ts";
import type { Recorder } from "./recorder.ts";

export const CLUSTER_FIGURES = [
  "cluster_rps",
  "cluster_p50_ms",
  "cluster_p99_ms",
  "cluster_node_cpu_us_per_req",
  "cluster_proxies_cpu_us_per_req",
  "cluster_services_cpu_us_per_req",
  "cluster_postgres_cpu_us_per_req",
  "cluster_redis_cpu_us_per_req",
  "cluster_nginx_cpu_us_per_req",
  "cluster_all_cpu_us_per_req",
  "cluster_idle_cpu_ms_per_s",
  "cluster_busy_cpu_us_per_req",
  "cluster_single_cpu_ratio",
  "cluster_pg_statements_per_req",
  "cluster_redis_commands_per_req",
];

/**
 * The cluster's CPU per check, every process counted, over the single-process stack's (its
 * proxy's and its service's, from the same run); undefined unless all three were measured.
 */
export function singleCpuRatio(
  clusterAll: number | undefined,
  proxy: unknown,
  service: unknown,
): number | undefined {
  return clusterAll !== undefined &&
    typeof proxy === "number" &&
    typeof service === "number" &&
    proxy + service > 0
    ? clusterAll / (proxy + service)
    : undefined;
}

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

/**
 * Signed-in single insurance checks through the cluster's https URL, each on a registration of
 * its own fleet at random: a fleet user signed in and one check made first, through a client
 * that verifies the certificate (autocannon does not).
 */
export async function signedInChecks(cluster: Cluster): Promise<LoadOptions> {
  const { rows } = await cluster.postgres.query(
    "SELECT registration FROM vehicles ORDER BY random() LIMIT $1",
    "vics_service",
    [SAMPLE],
  );
  const pick = randomPick(
    rows.map((row: { registration: string }) => String(row.registration)),
  );
  const client = drillClient(cluster);
  try {
    const { cookie } = await signedInUser(cluster, client, "fleet");
    const check = await client.fetch(PROXY_PREFIX + paths.insurance(pick()), {
      cookie,
    });
    const body = await check.text();
    if (check.status !== 200)
      throw new Error(
        `a check through the cluster answered ${check.status}: ${body.slice(0, 200)}`,
      );
    return {
      url: cluster.url,
      headers: { [CLIENT_HEADER]: "bench", Cookie: cookie },
      path: () => PROXY_PREFIX + paths.insurance(pick()),
      tls: {
        options: { ca: readFileSync(cluster.certificate) },
        servername: "localhost",
      },
    };
  } finally {
    await client.close();
  }
}

/** The replicas of each role in one measured cluster. */
export interface ClusterShape {
  services: number;
  proxies: number;
}

/** `npm run cluster`'s shape, the one deployed. */
export const DEPLOYED_SHAPE: ClusterShape = { services: 3, proxies: 2 };
/**
 * One replica of each, over the same PostgreSQL, Redis and nginx: the hops without the
 * replicas' contention for two cores (docs/performance.md).
 */
export const ONE_EACH_SHAPE: ClusterShape = { services: 1, proxies: 1 };

export const ONE_EACH_FIGURES = [
  "cluster_one_each_rps",
  "cluster_one_each_node_cpu_us_per_req",
  "cluster_one_each_busy_cpu_us_per_req",
  "cluster_one_each_single_cpu_ratio",
  "cluster_replicas_node_cpu_ratio",
];

/** One cluster's measured run: every figure per signed-in check, undefined where unread. */
interface ClusterRun {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  nodeUs?: number;
  proxiesUs?: number;
  servicesUs?: number;
  postgresUs?: number;
  redisUs?: number;
  nginxUs?: number;
  allUs?: number;
  idleMsPerSecond?: number;
  busyUs?: number;
  statementsPerCheck: number;
  commandsPerCheck: number;
}

type Plan = Parameters<typeof loadScenario>[2];

/**
 * Starts a cluster of `shape` in a folder of its own, signs a fleet user in, makes one check,
 * then loads it with signed-in checks through nginx's https and reads every process's CPU and
 * each store's counters over the measured run, and the cluster's idle CPU around it.
 */
async function measureCluster(
  shape: ClusterShape,
  plan: Plan,
  context: { quick: boolean; resources: OpenResources },
  say: (line: string) => void,
): Promise<ClusterRun> {
  // A folder of its own: PostgreSQL runs as its own user, which must pass through to it.
  const dataDir = mkdtempSync(join(tmpdir(), "vics-bench-cluster-"));
  const started = performance.now();
  let cluster: Awaited<ReturnType<typeof startCluster>> | undefined;
  const close = context.resources.add(async () => {
    await cluster?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  try {
    cluster = await startCluster({
      dataDir,
      httpsPort: 0,
      quiet: true,
      serviceReplicas: shape.services,
      proxyReplicas: shape.proxies,
      postgresSettings: PG_STAT_STATEMENTS,
    });
    await enablePgStatements(cluster.postgres);
    say(
      `  started in ${((performance.now() - started) / 1000).toFixed(1)} s: ${cluster.services.length} service and ${cluster.proxies.length} proxy replicas, PostgreSQL, Redis, nginx at ${cluster.url}`,
    );
    const checks = await signedInChecks(cluster);

    const pids: Record<string, number | undefined> = {};
    for (const replica of [...cluster.services, ...cluster.proxies])
      pids[replica.name] = replica.pid;
    // PostgreSQL's, Redis's and nginx's CPU (each a tree of processes but Redis), and the
    // statements and commands each server counted, over the measured run alone.
    const redis = await redisCounter(cluster.redis.url);
    const trees = {
      postgres: postmasterPid(cluster.postgres.dataDir),
      redis: redis.pid,
      nginx: cluster.nginx.pid,
    };
    const treeCpu = () =>
      Object.fromEntries(
        Object.entries(trees).map(([name, pid]) => [name, treeCpuSeconds(pid)]),
      );
    // What the cluster spends with no request at all (pg-boss's polling, the replicas'
    // timers), over a quiet window before the load and one after it, the lesser taken off
    // the run's CPU pro rata: right after the start PostgreSQL may still be writing the
    // seeded fleet out, which is not idle, so its dirty pages are flushed first.
    const allCpu = () => {
      const values = [
        ...Object.values(pids).map((pid) => cpuSeconds(pid)),
        ...Object.values(treeCpu()),
      ];
      return values.every((value) => value !== undefined)
        ? values.reduce((sum: number, value) => sum + value!, 0)
        : undefined;
    };
    const idleSeconds = context.quick ? 3 : 10;
    const idleRate = async () => {
      const start = allCpu();
      const at = performance.now();
      await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
      const end = allCpu();
      return start === undefined || end === undefined
        ? undefined
        : (end - start) / ((performance.now() - at) / 1000);
    };
    await cluster.postgres.query("CHECKPOINT");
    const idleBefore = await idleRate();
    let cpuBefore: Record<string, number | undefined> = {};
    let cpuAfter: Record<string, number | undefined> = {};
    const counts: Record<"before" | "after", [StoreCounts, StoreCounts]> = {
      before: [new Map(), new Map()],
      after: [new Map(), new Map()],
    };
    const storeCounts = async (): Promise<[StoreCounts, StoreCounts]> => [
      await pgStatementCounts(cluster!.postgres),
      await redis.counts(),
    ];
    const run = await loadScenario(
      `cluster insurance (${shape.services} services, ${shape.proxies} proxies)`,
      checks,
      plan,
      pids,
      {
        opened: async () => {
          counts.before = await storeCounts();
          cpuBefore = treeCpu();
        },
        closed: async () => {
          cpuAfter = treeCpu();
          counts.after = await storeCounts();
        },
      },
    ).finally(() => redis.close());
    const idleAfter = await idleRate();
    const idleCpuPerSecond =
      idleBefore === undefined || idleAfter === undefined
        ? undefined
        : Math.min(idleBefore, idleAfter);
    const nodeUs = summedCpu(run.cpuUsPerRequest, Object.keys(pids).length);
    // The same, by role: beside the single stack's proxy and service.
    const roleCpu = (replicas: readonly { name: string }[]) =>
      summedCpu(
        Object.fromEntries(
          replicas.flatMap(({ name }) => {
            const us = run.cpuUsPerRequest[name];
            return us === undefined ? [] : [[name, us]];
          }),
        ),
        replicas.length,
      );
    const treeUs = (name: keyof typeof trees) => {
      const before = cpuBefore[name];
      const after = cpuAfter[name];
      return before === undefined || after === undefined || run.requests === 0
        ? undefined
        : ((after - before) * 1e6) / run.requests;
    };
    const postgresUs = treeUs("postgres");
    const redisUs = treeUs("redis");
    const nginxUs = treeUs("nginx");
    const allUs =
      nodeUs !== undefined &&
      postgresUs !== undefined &&
      redisUs !== undefined &&
      nginxUs !== undefined
        ? nodeUs + postgresUs + redisUs + nginxUs
        : undefined;
    const busyUs =
      allUs === undefined || idleCpuPerSecond === undefined
        ? undefined
        : allUs - (idleCpuPerSecond * 1e6 * run.seconds) / run.requests;
    // The bench's own reads of the counters are not the checks'.
    const statements = perRequest(
      counts.before[0],
      counts.after[0],
      run.requests,
      { skip: (query) => query.includes("pg_stat_statements") },
    );
    const commands = perRequest(
      counts.before[1],
      counts.after[1],
      run.requests,
      {
        skip: (command) => command === "info",
      },
    );
    const us = (value: number | undefined) =>
      value === undefined ? "?" : String(Math.round(value));
    say(
      `  CPU per check: the Node replicas ${us(nodeUs)} µs (proxies ${us(roleCpu(cluster.proxies))}, services ${us(roleCpu(cluster.services))}), PostgreSQL ${us(postgresUs)}, Redis ${us(redisUs)}, nginx ${us(nginxUs)}: ${us(allUs)} µs in all; less the idle ${us(idleCpuPerSecond === undefined ? undefined : idleCpuPerSecond * 1000)} ms of CPU a second, ${us(busyUs)} µs`,
    );
    say(
      `  PostgreSQL per check: ${formatNumber(statements.calls, 2)} statements, ${us(statements.us)} µs of its own time; Redis: ${formatNumber(commands.calls, 2)} commands, ${us(commands.us)} µs`,
    );
    for (const row of statements.top)
      say(
        `    ${formatNumber(row.calls, 2)}× ${Math.round(row.us)} µs  ${row.name.slice(0, 110)}`,
      );
    for (const row of commands.top)
      say(
        `    ${formatNumber(row.calls, 2)}× ${Math.round(row.us)} µs  redis ${row.name}`,
      );
    say(
      `  ${Math.round(run.rps)} signed-in checks/s through https, ${CONNECTIONS} connections, p50 ${run.p50Ms} ms, p99 ${run.p99Ms} ms (${run.requests} requests)`,
    );
    return {
      rps: run.rps,
      p50Ms: run.p50Ms,
      p99Ms: run.p99Ms,
      nodeUs,
      proxiesUs: roleCpu(cluster.proxies),
      servicesUs: roleCpu(cluster.services),
      postgresUs,
      redisUs,
      nginxUs,
      allUs,
      idleMsPerSecond:
        idleCpuPerSecond === undefined ? undefined : idleCpuPerSecond * 1000,
      busyUs,
      statementsPerCheck: statements.calls,
      commandsPerCheck: commands.calls,
    };
  } finally {
    await close();
  }
}

export async function clusterFigures(
  context: { quick: boolean; resources: OpenResources },
  recorder: Recorder,
): Promise<void> {
  const { figures, say } = recorder;
  const missing = clusterMissing();
  if (missing)
    return recorder.skip([...CLUSTER_FIGURES, ...ONE_EACH_FIGURES], missing);
  const plan: Plan = {
    // Five replicas share the load, so each takes seconds to see enough checks to be
    // optimised: a 2-second warm-up left the measured run's CPU per check near double.
    ...(context.quick
      ? { warmUpSeconds: 5, seconds: 5 }
      : { warmUpSeconds: 5, seconds: 15 }),
    // One fleet user sends every check: stay under their limit of a minute.
    maxRequests: DEFAULT_USER_LIMITS.fleet * 0.9,
  };
  const single = (busyUs: number | undefined) =>
    singleCpuRatio(
      busyUs,
      figures.proxy_cpu_us_per_req,
      figures.service_cpu_us_per_req,
    ) ?? null;
  const ratioSaid = (ratio: number | null) =>
    ratio === null
      ? "the single-process stack's CPU not measured in this run"
      : `${formatNumber(ratio, 2)} × the single-process stack's proxy_cpu_us_per_req + service_cpu_us_per_req`;

  let deployed: ClusterRun | undefined;
  await recorder.scenario(
    CLUSTER_FIGURES,
    async () => {
      const run = await measureCluster(DEPLOYED_SHAPE, plan, context, say);
      deployed = run;
      figures.cluster_rps = run.rps;
      figures.cluster_p50_ms = run.p50Ms;
      figures.cluster_p99_ms = run.p99Ms;
      figures.cluster_node_cpu_us_per_req = run.nodeUs ?? null;
      figures.cluster_proxies_cpu_us_per_req = run.proxiesUs ?? null;
      figures.cluster_services_cpu_us_per_req = run.servicesUs ?? null;
      figures.cluster_postgres_cpu_us_per_req = run.postgresUs ?? null;
      figures.cluster_redis_cpu_us_per_req = run.redisUs ?? null;
      figures.cluster_nginx_cpu_us_per_req = run.nginxUs ?? null;
      figures.cluster_all_cpu_us_per_req = run.allUs ?? null;
      figures.cluster_idle_cpu_ms_per_s = run.idleMsPerSecond ?? null;
      figures.cluster_busy_cpu_us_per_req = run.busyUs ?? null;
      figures.cluster_single_cpu_ratio = single(run.busyUs);
      figures.cluster_pg_statements_per_req = run.statementsPerCheck;
      figures.cluster_redis_commands_per_req = run.commandsPerCheck;
      const proxyRps = figures.proxy_rps;
      say(
        `  ${ratioSaid(figures.cluster_single_cpu_ratio)}; ${typeof proxyRps === "number" && proxyRps > 0 ? `${formatNumber(run.rps / proxyRps, 2)} × the single machine's proxy_rps (${Math.round(proxyRps)} req/s)` : "proxy_rps not measured"}`,
      );
    },
    "the cluster: signed-in checks through nginx's https, 3 services, 2 proxies, PostgreSQL, Redis",
  );
  await recorder.scenario(
    ONE_EACH_FIGURES,
    async () => {
      const run = await measureCluster(ONE_EACH_SHAPE, plan, context, say);
      figures.cluster_one_each_rps = run.rps;
      figures.cluster_one_each_node_cpu_us_per_req = run.nodeUs ?? null;
      figures.cluster_one_each_busy_cpu_us_per_req = run.busyUs ?? null;
      figures.cluster_one_each_single_cpu_ratio = single(run.busyUs);
      // What three services and two proxies on these two cores cost over one of each.
      figures.cluster_replicas_node_cpu_ratio =
        deployed?.nodeUs !== undefined && run.nodeUs
          ? deployed.nodeUs / run.nodeUs
          : null;
      say(`  ${ratioSaid(figures.cluster_one_each_single_cpu_ratio)}`);
    },
    "the same cluster with one service and one proxy replica",
  );
}
