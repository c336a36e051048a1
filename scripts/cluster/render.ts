// The files of deploy/ are templates: `{{NAME}}` marks a value of the machine they go on.
// `npm run cluster` renders them with its own values and runs what they say, so the files a
// team installs are the files the cluster tests.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

const PLACEHOLDER = /\{\{([A-Z][A-Z0-9_]*)\}\}/g;

/** Every `{{NAME}}` replaced; a name without a value is an error, never an empty string. */
export function renderTemplate(
  text: string,
  values: Readonly<Record<string, string>>,
): string {
  const missing = new Set<string>();
  const rendered = text.replace(PLACEHOLDER, (_, name: string) => {
    const value = values[name];
    if (value === undefined) missing.add(name);
    return value ?? "";
  });
  if (missing.size > 0)
    throw new Error(`No value for ${[...missing].join(", ")}`);
  return rendered;
}

/** The placeholders a template uses, for the docs' table and its test. */
export function placeholders(text: string): string[] {
  return [
    ...new Set([...text.matchAll(PLACEHOLDER)].map((match) => match[1]!)),
  ].sort();
}

/** The deploy/ files, by their path under deploy/. */
export const DEPLOY_FILES = [
  "systemd/vics-service@.service",
  "systemd/vics-proxy@.service",
  "nginx/vics.conf",
  "env/service.env",
  "env/proxy.env",
  "prometheus/prometheus.yml",
  "systemd/vics-backup.service",
  "systemd/vics-backup.timer",
] as const;

export type DeployFile = (typeof DEPLOY_FILES)[number];

/**
 * One replica's own settings (its metrics port), rendered once per replica as
 * `env/service-<port>.env` or `env/proxy-<port>.env`, which its unit reads after the shared file.
 */
export const REPLICA_ENV = "env/replica.env";

export type ReplicaKind = "service" | "proxy";

/** A replica's port (its unit's instance) and its metrics listener's port. */
export interface ReplicaPorts {
  port: number;
  metricsPort: number;
}

/** The values naming each kind's replicas and their metrics ports: "3101:9101 3102:9102". */
const REPLICA_PORTS_VALUE = {
  service: "SERVICE_METRICS_PORTS",
  proxy: "PROXY_METRICS_PORTS",
} as const satisfies Record<ReplicaKind, string>;

/** "3101:9101 3102:9102": each replica's port and its metrics port. */
export function parseReplicaPorts(text: string): ReplicaPorts[] {
  return text
    .trim()
    .split(/\s+/)
    .filter((pair) => pair !== "")
    .map((pair) => {
      const match = /^(\d+):(\d+)$/.exec(pair);
      const [port, metricsPort] = [Number(match?.[1]), Number(match?.[2])];
      if (!match || !isPort(port) || !isPort(metricsPort))
        throw new Error(
          `not a replica's port and its metrics port (3101:9101): ${pair}`,
        );
      return { port, metricsPort };
    });
}

export const formatReplicaPorts = (replicas: readonly ReplicaPorts[]) =>
  replicas.map((r) => `${r.port}:${r.metricsPort}`).join(" ");

const isPort = (n: number) => Number.isInteger(n) && n > 0 && n <= 65535;

/**
 * Prometheus's static targets for the replicas' metrics listeners, for the template's
 * `targets: ["{{...}}"]`: `127.0.0.1:9101", "127.0.0.1:9102`, quotes between the targets and none
 * around them, so that the template stays YAML that prettier keeps.
 */
export const metricsTargets = (replicas: readonly ReplicaPorts[]) =>
  replicas.map((r) => `127.0.0.1:${r.metricsPort}`).join('", "');

/**
 * The values the files are rendered with: `values`, and what follows from them (Prometheus's
 * targets, from each kind's replica ports).
 */
export function deployValues(
  values: Readonly<Record<string, string>>,
): Record<string, string> {
  const derived: Record<string, string> = {};
  for (const [kind, name] of Object.entries(REPLICA_PORTS_VALUE)) {
    const text = values[name];
    if (text !== undefined)
      derived[`${kind.toUpperCase()}_METRICS_TARGETS`] = metricsTargets(
        parseReplicaPorts(text),
      );
  }
  return { ...values, ...derived };
}

/** Where a replica's own env file goes, under the rendered folder. */
export const replicaEnvFile = (kind: ReplicaKind, port: number) =>
  `env/${kind}-${port}.env`;

/**
 * Renders every deploy/ file into `outDir` (same paths), and the replica file once for each
 * replica that SERVICE_METRICS_PORTS and PROXY_METRICS_PORTS name; returns where each went.
 */
export function renderDeploy(
  deployDir: string,
  outDir: string,
  values: Readonly<Record<string, string>>,
): Record<DeployFile, string> & Record<string, string> {
  const all = deployValues(values);
  const written = {} as Record<DeployFile, string> & Record<string, string>;
  const render = (template: string, file: string, using: typeof all) => {
    const target = join(outDir, file);
    mkdirSync(dirname(target), { recursive: true });
    // 0600: the env files hold database passwords.
    writeFileSync(
      target,
      renderTemplate(readFileSync(join(deployDir, template), "utf8"), using),
      { mode: 0o600 },
    );
    written[file] = target;
  };
  for (const file of DEPLOY_FILES) render(file, file, all);
  for (const [kind, name] of Object.entries(REPLICA_PORTS_VALUE))
    for (const replica of parseReplicaPorts(values[name] ?? ""))
      render(REPLICA_ENV, replicaEnvFile(kind as ReplicaKind, replica.port), {
        ...all,
        METRICS_PORT: String(replica.metricsPort),
      });
  return written;
}
