// `npm run cluster`: VICS as a team runs it on several machines, on this one. PostgreSQL, Redis,
// three service replicas, two proxy replicas and nginx with TLS, all on loopback, from the
// files in deploy/ (rendered into the data folder). Ctrl-C stops all of it.
// CLUSTER_DIR (default data/cluster) keeps everything between runs; CLUSTER_PORT (default 8443)
// is the https port.
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
const cluster = await startCluster({
  dataDir,
  httpsPort,
  say: (message) => console.log(`cluster: ${message}`),
}).catch((error: unknown) => {
  console.error(
    `cluster: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log(
      "\ncluster: stopping nginx, the replicas, Redis and PostgreSQL",
    );
    void cluster.close().then(() => process.exit(0));
  });

console.log(`
VICS cluster: ${cluster.url}/
  nginx (TLS, self-signed: ${shown(cluster.certificate)}) in front of
  ${cluster.proxies.length} proxies (${cluster.proxies.map((p) => p.port).join(", ")}) and ${cluster.services.length} services (${cluster.services.map((s) => s.port).join(", ")}),
  PostgreSQL on port ${cluster.postgres.port}, Redis on port ${cluster.redis.port}.
  Data, rendered deploy/ files and logs: ${shown(dataDir)}
${cluster.firstAdmin ? `\n${cluster.firstAdmin.trim().replace(/^/gm, "  ")}\n` : ""}
  Users: set -a; . ${shown(join(cluster.etcDir, "env/proxy.env"))}; set +a; scripts/users list
  Ctrl-C stops everything.
`);
