// `npm run cluster`: VICS as a team runs it on several machines, on this one. PostgreSQL, Redis,
// three service replicas, two proxy replicas, nginx with TLS and Prometheus scraping them, all
// on loopback, from the files in deploy/ (rendered into the data folder). Ctrl-C stops all of it.
// CLUSTER_DIR (default data/cluster) keeps everything between runs; CLUSTER_PORT (default 8443)
// is the https port. Every other port is a free one picked at each start, and printed.
import { join, relative, resolve } from "node:path";
import { startCluster, ROOT } from "./cluster/start-cluster.ts";
import {
  buildWebApp,
  builtAt,
  sourceTimes,
  webBuildIsStale,
} from "./start/web-build.ts";

const dataDir = resolve(ROOT, process.env.CLUSTER_DIR || "data/cluster");
const httpsPort = Number(process.env.CLUSTER_PORT || 8443);
if (!Number.isInteger(httpsPort) || httpsPort < 1 || httpsPort > 65535) {
  console.error(
    `CLUSTER_PORT must be a port number (got "${process.env.CLUSTER_PORT}")`,
  );
  process.exit(1);
}

if (webBuildIsStale(builtAt(ROOT), sourceTimes(ROOT))) await buildWebApp(ROOT);

/** A path as short as it reads well: relative below here, else absolute. */
const shown = (path: string) => {
  const near = relative(process.cwd(), path) || ".";
  return near.startsWith("..") ? path : near;
};

// Ctrl-C, at any point from here: a terminal signals its whole foreground group, but nginx,
// PostgreSQL, Redis, Prometheus and the replicas each run in a group of their own, so only this
// process hears it, and it stops them in order (Prometheus and nginx's exporter, nginx, the
// proxies, the services, Redis, PostgreSQL), each before what it calls goes away. One line says so; nothing warns of a server gone.
// SIGHUP (the terminal closed) stops them the same way: left to its default it would end this
// process alone, and the servers in their own groups would go on holding the ports. With the
// terminal gone, writing to it fails (EIO, EPIPE); that must not end the stopping half-way.
const stop = new AbortController();
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const)
  process.on(signal, () => {
    if (signal === "SIGHUP")
      for (const stream of [process.stdout, process.stderr])
        stream.on("error", () => {});
    if (stop.signal.aborted) return;
    process.stdout.write(
      "\ncluster: stopping Prometheus, nginx, the replicas, Redis and PostgreSQL...",
    );
    stop.abort();
  });
const stopped = () => {
  process.stdout.write(" stopped.\n");
  process.exit(0);
};

const cluster = await startCluster({
  dataDir,
  httpsPort,
  prometheus: true,
  say: (message) => console.log(`cluster: ${message}`),
  signal: stop.signal,
}).catch((error: unknown) => {
  // Stopped while starting: what had started is stopped.
  if (stop.signal.aborted) stopped();
  console.error(
    `cluster: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});
const close = () => void cluster.close().then(stopped);
if (stop.signal.aborted) close();
else {
  stop.signal.addEventListener("abort", close, { once: true });
  const prometheus = cluster.prometheus!;
  const metricsPorts = (replicas: typeof cluster.services) =>
    replicas.map((replica) => cluster.metricsPorts[replica.port]).join(", ");
  console.log(`
VICS cluster: ${cluster.url}/
  nginx (TLS, self-signed: ${shown(cluster.certificate)}) in front of
  ${cluster.proxies.length} proxies (${cluster.proxies.map((p) => p.port).join(", ")}) and ${cluster.services.length} services (${cluster.services.map((s) => s.port).join(", ")}),
  PostgreSQL on port ${cluster.postgres.port}, Redis on port ${cluster.redis.port};
  nginx's http port ${cluster.httpPort} redirects to https, and the proxies reach the services at ${cluster.serviceUrl}.
  Prometheus: ${prometheus.url}/ scrapes every 2 s the services' metrics (ports ${metricsPorts(cluster.services)}), the proxies'
  (ports ${metricsPorts(cluster.proxies)}) and nginx's stub_status through prometheus-nginx-exporter (port ${prometheus.exporterPort}); alerts at ${prometheus.url}/alerts.
  Data, rendered deploy/ files and logs: ${shown(dataDir)}
${cluster.firstAdmin ? `\n${cluster.firstAdmin.trim().replace(/^/gm, "  ")}\n` : ""}
  Users: set -a; . ${shown(join(cluster.etcDir, "env/proxy.env"))}; set +a; scripts/users list
  Ctrl-C stops everything.
`);
}
