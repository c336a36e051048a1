// The cluster on one machine: PostgreSQL and Redis in the data folder, three service replicas
// and two proxy replicas started from the rendered systemd units, each with its metrics
// listener, nginx in front with TLS, and (when asked) Prometheus scraping them all.
// `npm run cluster` (scripts/cluster.ts) runs it until Ctrl-C; the fault drills use it too.
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { READY_PATH } from "@vics/shared";
import { freePort } from "@vics/shared/testing/free-port";
import {
  startPostgres,
  type PostgresServer,
} from "@vics/server-kit/testing/postgres-server";
import {
  startRedis,
  type RedisServer,
} from "@vics/server-kit/testing/redis-server";
import { ensureProxyKey } from "../start/proxy-key.ts";
import { databaseUrl, ensureDatabase, ensureRole } from "./databases.ts";
import { findNginx, Nginx, upstreamServers } from "./nginx.ts";
import {
  startMonitoring,
  prometheusMissing,
  type Monitoring,
} from "./prometheus.ts";
import { formatReplicaPorts, renderDeploy } from "./render.ts";
import { ensureSecrets } from "./secrets.ts";
import { Replica } from "./supervisor.ts";
import { ensureCertificate } from "./tls.ts";
import { readUnit, type UnitCommand } from "./units.ts";

export const ROOT = resolve(import.meta.dirname, "../..");
export const FIRST_ADMIN_EMAIL = "admin@localhost";

export interface ClusterOptions {
  /** Everything the cluster keeps: databases, certificate, rendered files, logs. */
  dataDir: string;
  /** The https port on 127.0.0.1; 0 picks a free one. */
  httpsPort: number;
  serviceReplicas?: number;
  proxyReplicas?: number;
  /** Replicas' warnings stay in their log files (the drills). */
  quiet?: boolean;
  /**
   * Also Prometheus, scraping every replica and nginx (through Debian's
   * prometheus-nginx-exporter) every `scrapeInterval`, as `npm run cluster` runs it. Default
   * false: the bench and the drills measure the cluster without it.
   */
  prometheus?: boolean;
  /** More PostgreSQL server settings (the bench's pg_stat_statements). */
  postgresSettings?: Record<string, string>;
  /**
   * More environment for every Node replica, over its unit's (the bench's CPU profiles:
   * `NODE_OPTIONS=--cpu-prof ...`); so do the commands run with a replica's environment (the
   * proxies' keys at set-up, `scripts/users` through `proxyEnv`).
   */
  replicaEnv?: Record<string, string>;
  /** Prometheus's scrape and rule evaluation interval; default "2s". */
  scrapeInterval?: string;
  /** Said as each step starts. */
  say?: (message: string) => void;
  /**
   * Aborted while the cluster starts (Ctrl-C): what has started is stopped, in order, and the
   * start rejects. After the start, close() stops it.
   */
  signal?: AbortSignal;
}

export interface Cluster {
  /** https://127.0.0.1:port */
  url: string;
  /** nginx's plain http port, which only redirects to `url`. */
  httpPort: number;
  /** nginx's loopback listener in front of the service replicas (what the proxies call). */
  serviceUrl: string;
  certificate: string;
  services: Replica[];
  proxies: Replica[];
  postgres: PostgresServer;
  redis: RedisServer;
  nginx: Nginx;
  /** Each replica's metrics listener's port (GET /metrics), by the replica's port. */
  metricsPorts: Record<number, number>;
  /** nginx's stub_status, on its loopback listener of its own. */
  nginxStatusUrl: string;
  /** Prometheus and nginx's exporter, with `prometheus: true`. */
  prometheus?: Monitoring;
  /** The API key file the proxies read (mode 0600). */
  apiKeyFile: string;
  /** The rendered deploy/ files the cluster runs. */
  etcDir: string;
  logsDir: string;
  /** The proxies' environment, for `scripts/users` against the cluster's store. */
  proxyEnv: Record<string, string>;
  serviceEnv: Record<string, string>;
  /** What `scripts/users create --admin` printed on the first run (its link), else "". */
  firstAdmin: string;
  /** Takes a replica out of nginx, restarts it, and puts it back: `systemctl restart`, drained. */
  restartDrained(replica: Replica): Promise<void>;
  close(): Promise<void>;
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const say = options.say ?? (() => {});
  const nginxBinary = findNginx();
  if (!nginxBinary)
    throw new Error("nginx is not installed: apt-get install -y nginx");
  const noPrometheus = options.prometheus ? prometheusMissing() : undefined;
  if (noPrometheus) throw new Error(noPrometheus);
  const dataDir = resolve(options.dataDir);
  const etcDir = join(dataDir, "etc");
  const logsDir = join(dataDir, "logs");
  for (const dir of [dataDir, etcDir, logsDir])
    mkdirSync(dir, { recursive: true });
  // PostgreSQL runs as its own user (as root: postgres), which must pass through to its folder.
  chmodSync(dataDir, 0o711);
  const secrets = ensureSecrets(dataDir);
  const certificate = ensureCertificate(join(dataDir, "tls"));
  const stops: Array<() => Promise<void>> = [];
  let front: Nginx | undefined;
  let watching: Monitoring | undefined;
  // Prometheus first (it would only record the rest going), then nginx (no new requests), then
  // the rest in the reverse order of starting: the proxies before the services they call, the
  // servers before PostgreSQL and Redis. Each is stopped once; a second close() (an abort, then
  // the start's own failure) waits for the first and stops whatever started since.
  let closing = Promise.resolve();
  const close = () =>
    (closing = closing.then(async () => {
      const monitoring = watching;
      watching = undefined;
      await monitoring?.stop().catch(() => {});
      const nginx = front;
      front = undefined;
      await nginx?.stop().catch(() => {});
      for (let stop = stops.pop(); stop; stop = stops.pop())
        await stop().catch(() => {});
    }));
  const { signal } = options;
  // An abort stops what has started; between steps, signal.throwIfAborted() ends the start.
  const onAbort = () => void close();
  signal?.addEventListener("abort", onAbort, { once: true });

  try {
    say(
      "starting PostgreSQL (initialised in the data folder on the first run)",
    );
    const postgres = await startPostgres({
      dataDir: join(dataDir, "postgres"),
      fast: false,
      superuserPassword: secrets.postgresPassword,
      settings: options.postgresSettings,
      // Ctrl-C reaches this process alone, which stops PostgreSQL last (after its clients).
      ownProcessGroup: true,
    });
    stops.push(() => postgres.close());
    signal?.throwIfAborted();
    // The service owns its database. The proxy works as a lesser role that may append to the
    // audit log but never change it; its owner role migrates (decision 038).
    const service = { role: "vics_service", password: secrets.servicePassword };
    const proxy = { role: "vics_proxy", password: secrets.proxyPassword };
    const proxyOwner = {
      role: "vics_proxy_owner",
      password: secrets.proxyOwnerPassword,
    };
    for (const spec of [service, proxy, proxyOwner])
      await ensureRole(postgres.url(), spec);
    await ensureDatabase(postgres.url(), "vics_service", service.role);
    await ensureDatabase(postgres.url(), "vics_proxy", proxyOwner.role, [
      proxy.role,
    ]);

    signal?.throwIfAborted();

    say("starting Redis");
    const redis = await startRedis({
      dataDir: join(dataDir, "redis"),
      ownProcessGroup: true,
    });
    stops.push(() => redis.close());
    signal?.throwIfAborted();

    const servicePorts = await ports(options.serviceReplicas ?? 3);
    const proxyPorts = await ports(options.proxyReplicas ?? 2);
    const httpsPort = options.httpsPort || (await freePort());
    const [
      httpPort,
      serviceListenPort,
      statusPort,
      prometheusPort,
      exporterPort,
      ...metricsPortList
    ] = (await ports(5 + servicePorts.length + proxyPorts.length)) as [
      number,
      number,
      number,
      number,
      number,
      ...number[],
    ];
    // Each replica's metrics listener, in its own env file (env/service-<port>.env).
    const metricsPorts = Object.fromEntries(
      [...servicePorts, ...proxyPorts].map((port, i) => [
        port,
        metricsPortList[i]!,
      ]),
    ) as Record<number, number>;
    const replicaPorts = (list: number[]) =>
      formatReplicaPorts(
        list.map((port) => ({ port, metricsPort: metricsPorts[port]! })),
      );
    const nginxStatusUrl = `http://127.0.0.1:${statusPort}/stub_status`;
    const url = `https://127.0.0.1:${httpsPort}`;
    const serviceUrl = `http://127.0.0.1:${serviceListenPort}`;
    const apiKeyFile = join(etcDir, "proxy-api-key");
    const watchApiKeyFile = join(etcDir, "watch-api-key");
    const values: Record<string, string> = {
      APP_DIR: ROOT,
      // The env files render into etc/env/, where the units look for them.
      ETC_DIR: join(etcDir, "env"),
      NODE: process.execPath,
      SERVICE_DATABASE_URL: databaseUrl(postgres.port, service, "vics_service"),
      // A demo: the synthetic fleet and its sandbox registrations.
      SEED_SYNTHETIC_FLEET: "true",
      PROXY_DATABASE_URL: databaseUrl(postgres.port, proxy, "vics_proxy"),
      PROXY_MIGRATION_DATABASE_URL: databaseUrl(
        postgres.port,
        proxyOwner,
        "vics_proxy",
      ),
      RATE_LIMIT_URL: redis.url,
      TRUSTED_PROXIES: "127.0.0.1",
      LOG_HASH_KEY: secrets.logHashKey,
      PUBLIC_ORIGIN: url,
      SERVICE_URL: serviceUrl,
      API_KEY_FILE: apiKeyFile,
      WATCH_API_KEY_FILE: watchApiKeyFile,
      SERVER_NAME: "127.0.0.1 localhost",
      HTTP_LISTEN: `127.0.0.1:${httpPort}`,
      HTTPS_LISTEN: `127.0.0.1:${httpsPort}`,
      HTTPS_PORT_SUFFIX: `:${httpsPort}`,
      SERVICE_LISTEN: `127.0.0.1:${serviceListenPort}`,
      TLS_CERTIFICATE: certificate.certificate,
      TLS_CERTIFICATE_KEY: certificate.key,
      NGINX_STATUS_LISTEN: `127.0.0.1:${statusPort}`,
      NGINX_EXPORTER_LISTEN: `127.0.0.1:${exporterPort}`,
      SCRAPE_INTERVAL: options.scrapeInterval ?? "2s",
      ALERT_RULES_FILE: join(ROOT, "deploy/prometheus/alerts.yml"),
      SERVICE_METRICS_PORTS: replicaPorts(servicePorts),
      PROXY_METRICS_PORTS: replicaPorts(proxyPorts),
    };
    const render = (down: ReadonlySet<number> = new Set()) =>
      renderDeploy(join(ROOT, "deploy"), etcDir, {
        ...values,
        SERVICE_SERVERS: upstreamServers(servicePorts, down),
        PROXY_SERVERS: upstreamServers(proxyPorts, down),
      });
    const files = render();

    say("starting nginx");
    const nginx = new Nginx(
      nginxBinary,
      join(dataDir, "nginx"),
      files["nginx/vics.conf"],
    );
    front = nginx;
    await nginx.start();
    signal?.throwIfAborted();

    const replica = (kind: "service" | "proxy", port: number) => {
      const unitFile =
        kind === "service"
          ? files["systemd/vics-service@.service"]
          : files["systemd/vics-proxy@.service"];
      return new Replica({
        name: `${kind}-${port}`,
        unit: withEnv(
          readUnit(readFileSync(unitFile, "utf8"), String(port)),
          options.replicaEnv,
        ),
        port,
        readyPath: READY_PATH,
        logFile: join(logsDir, `${kind}-${port}.log`),
        quiet: options.quiet,
      });
    };

    say(`starting ${servicePorts.length} service replicas together`);
    const services = servicePorts.map((port) => replica("service", port));
    stops.push(async () => {
      await Promise.all(services.map((s) => s.close()));
    });
    await Promise.all(services.map((s) => s.start()));
    signal?.throwIfAborted();
    const serviceEnv = services[0]!.env;

    await ensureProxyKey({
      root: ROOT,
      serviceUrl,
      keyFile: apiKeyFile,
      databaseEnv: serviceEnv,
      namePrefix: "cluster-proxies",
    });
    // The watched fleets' re-checks: a key of their own, as on a real machine.
    await ensureProxyKey({
      root: ROOT,
      serviceUrl,
      keyFile: watchApiKeyFile,
      databaseEnv: serviceEnv,
      namePrefix: "cluster-rechecks",
    });
    signal?.throwIfAborted();
    const firstAdmin = ensureFirstAdmin(
      readUnit(
        readFileSync(files["systemd/vics-proxy@.service"], "utf8"),
        String(proxyPorts[0]),
      ).env,
    );

    say(`starting ${proxyPorts.length} proxy replicas together`);
    const proxies = proxyPorts.map((port) => replica("proxy", port));
    stops.push(async () => {
      await Promise.all(proxies.map((p) => p.close()));
    });
    await Promise.all(proxies.map((p) => p.start()));
    signal?.throwIfAborted();
    const proxyEnv = proxies[0]!.env;

    if (options.prometheus) {
      say("starting Prometheus and nginx's exporter");
      watching = await startMonitoring({
        configFile: files["prometheus/prometheus.yml"],
        dataDir: join(dataDir, "prometheus"),
        logsDir,
        port: prometheusPort,
        exporterPort,
        nginxStatusUrl,
      });
      signal?.throwIfAborted();
    }

    return {
      url,
      httpPort,
      serviceUrl,
      certificate: certificate.certificate,
      services,
      proxies,
      postgres,
      redis,
      nginx,
      metricsPorts,
      nginxStatusUrl,
      prometheus: watching,
      apiKeyFile,
      etcDir,
      logsDir,
      proxyEnv,
      serviceEnv,
      firstAdmin,
      async restartDrained(target) {
        render(new Set([target.port]));
        await nginx.reload();
        await target.restart();
        render();
        await nginx.reload();
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
}

async function ports(count: number): Promise<number[]> {
  const found = new Set<number>();
  while (found.size < count) found.add(await freePort());
  return [...found];
}

/**
 * On the first run, the first admin, with the command an operator runs on a real machine
 * (before the proxies start, so no replica offers a link of its own). Returns what it printed.
 */
function ensureFirstAdmin(proxyEnv: Record<string, string>): string {
  const users = (...args: string[]) =>
    execFileSync(join(ROOT, "scripts/users"), args, {
      env: { PATH: process.env.PATH, ...proxyEnv },
      encoding: "utf8",
    });
  return users("list").startsWith("No users yet")
    ? users("create", "--admin", "--email", FIRST_ADMIN_EMAIL)
    : "";
}

/** The unit with more environment over its own, or as it is. */
function withEnv(
  unit: UnitCommand,
  env: Record<string, string> | undefined,
): UnitCommand {
  return env ? { ...unit, env: { ...unit.env, ...env } } : unit;
}
