// The bench's table: each server-side figure with its unit, the bench's targets (stated in
// docs/performance.md), and the ratios taken in the same run. Pure, so the verdicts
// themselves are tested.
import {
  CONTESTANTS,
  COST_RATIOS,
  costKeys,
  ratioSpreadKeys,
} from "./costs.ts";
import type { Figures } from "./figures.ts";
import {
  TRACING_OFF_PATH,
  TRACING_OFF_RATIO,
  TRACING_RATIO,
  TRACING_RATIO_SPREAD,
  TRACING_TARGETS,
} from "./tracing-figures.ts";
import { SOURCE_DEFAULTS } from "../service/src/sources/source-settings.ts";

/** One line of the table; the web figures (bench/web) hand back rows of the same shape. */
export interface Row {
  figure: string;
  value: string;
  target?: string;
  met?: boolean;
}

interface FigureSpec {
  key: string;
  unit: string;
  digits: number;
  /** The target: the figure must be at most this. */
  atMost?: number;
  /** The target: the figure must be at least this. */
  atLeast?: number;
  /** The figures of its fastest and slowest round (or of what `of` says), shown beside it. */
  spread?: Spread;
}

/** A figure's fastest and slowest keys, and what they are of: rounds unless said. */
interface Spread {
  fastest: string;
  slowest: string;
  of?: "rounds" | "pairs";
}

/** Each server of the cost rounds (costs.ts): CPU per request with its rounds, then req/s. */
const COST_FIGURES: FigureSpec[] = CONTESTANTS.flatMap((name) => {
  const keys = costKeys(name);
  return [
    {
      key: keys.cpu,
      unit: "µs CPU/req",
      digits: 0,
      spread: { fastest: keys.cpuFastest, slowest: keys.cpuSlowest },
    },
    { key: keys.rps, unit: "req/s", digits: 0 },
  ];
});

export const SERVER_FIGURES: readonly FigureSpec[] = [
  { key: "seed1m_s", unit: "s", digits: 1, atMost: 60 },
  ...COST_FIGURES,
  { key: "service_p50_ms", unit: "ms", digits: 1 },
  { key: "service_p99_ms", unit: "ms", digits: 1 },
  { key: "proxy_p99_ms", unit: "ms", digits: 1 },
  { key: "compliance_rps", unit: "req/s", digits: 0 },
  // What sign-in adds to each of those checks, measured in process (signed-in-check.ts).
  { key: "signed_in_check_cpu_us", unit: "µs CPU/check", digits: 0 },
  {
    key: "signed_in_check_cpu_fastest_round_us",
    unit: "µs CPU/check",
    digits: 0,
  },
  {
    key: "signed_in_check_cpu_slowest_round_us",
    unit: "µs CPU/check",
    digits: 0,
  },
  { key: "session_read_cpu_us", unit: "µs CPU/check", digits: 0 },
  { key: "audit_append_cpu_us", unit: "µs CPU/check", digits: 0 },
  { key: "audit_append_p50_us", unit: "µs", digits: 0 },
  { key: "bulk1000_p50_ms", unit: "ms", digits: 1, atMost: 20 },
  { key: "bulk_compliance1000_p50_ms", unit: "ms", digits: 1, atMost: 20 },
  { key: "fleet100k_node_s", unit: "s", digits: 1, atMost: 10 },
  { key: "fleet100k_node_per_s", unit: "reg/s", digits: 0 },
  // Watched fleets (sweep.ts): the daily re-check of 100,000 vehicles by the proxy's sweep.
  { key: "sweep100k_s", unit: "s", digits: 1, atMost: 60 },
  { key: "sweep100k_first_s", unit: "s", digits: 1 },
  { key: "alert_eval_us", unit: "µs/vehicle", digits: 2 },
  { key: "service_rss_mb", unit: "MB", digits: 0 },
  { key: "audit_search_p50_ms", unit: "ms", digits: 2, atMost: 50 },
  { key: "audit_search_fastest_round_ms", unit: "ms", digits: 2 },
  { key: "audit_search_slowest_round_ms", unit: "ms", digits: 2 },
  { key: "audit_seed10m_s", unit: "s", digits: 1 },
  // The same search on PostgreSQL (audit-search-pg.ts): ten years in partitions, and one.
  { key: "audit_search_pg_p50_ms", unit: "ms", digits: 2, atMost: 50 },
  { key: "audit_search_pg_fastest_round_ms", unit: "ms", digits: 2 },
  { key: "audit_search_pg_slowest_round_ms", unit: "ms", digits: 2 },
  { key: "audit_search_pg_partitions", unit: "tables", digits: 0 },
  { key: "audit_search_pg_one_partition_p50_ms", unit: "ms", digits: 2 },
  { key: "audit_search_pg_partitions_ratio", unit: "×", digits: 2 },
  { key: "audit_seed_pg_s", unit: "s", digits: 1 },
  // The proxy's PostgreSQL store (store-sizes.ts): what the sizing multiplies.
  { key: "audit_pg_bytes_per_event", unit: "B", digits: 0 },
  { key: "audit_pg_wal_bytes_per_event", unit: "B", digits: 0 },
  { key: "audit_pg_node_cpu_us_per_event", unit: "µs CPU/event", digits: 1 },
  { key: "audit_pg_bytes_per_bulk_plate", unit: "B", digits: 0 },
  { key: "audit_pg_wal_bytes_per_bulk_plate", unit: "B", digits: 0 },
  { key: "fleet_pg_bytes_per_vehicle", unit: "B", digits: 0 },
  { key: "fleet_pg_wal_bytes_per_vehicle", unit: "B", digits: 0 },
  // PostgreSQL beside SQLite (engines.ts): the same fleet, interleaved rounds, median round.
  { key: "postgres_seed1m_s", unit: "s", digits: 1 },
  { key: "postgres_shared_buffers_mb", unit: "MB", digits: 0 },
  { key: "sqlite_lookup_p50_ms", unit: "ms", digits: 1 },
  { key: "sqlite_lookup_fastest_round_ms", unit: "ms", digits: 1 },
  { key: "sqlite_lookup_slowest_round_ms", unit: "ms", digits: 1 },
  { key: "postgres_lookup_p50_ms", unit: "ms", digits: 1 },
  { key: "postgres_lookup_fastest_round_ms", unit: "ms", digits: 1 },
  { key: "postgres_lookup_slowest_round_ms", unit: "ms", digits: 1 },
  { key: "sqlite_lookup_rps", unit: "req/s", digits: 0 },
  { key: "postgres_lookup_rps", unit: "req/s", digits: 0 },
  { key: "sqlite_bulk1000_p50_ms", unit: "ms", digits: 1, atMost: 20 },
  { key: "sqlite_bulk1000_fastest_round_ms", unit: "ms", digits: 1 },
  { key: "sqlite_bulk1000_slowest_round_ms", unit: "ms", digits: 1 },
  { key: "postgres_bulk1000_p50_ms", unit: "ms", digits: 1, atMost: 30 },
  { key: "postgres_bulk1000_fastest_round_ms", unit: "ms", digits: 1 },
  { key: "postgres_bulk1000_slowest_round_ms", unit: "ms", digits: 1 },
  // The operator's import (imports.ts): 1,000,000 vehicles then a policy each, per engine,
  // and the command's peak memory over one 1 GB file (100 MB with --quick).
  { key: "import1m_sqlite_s", unit: "s", digits: 1, atMost: 60 },
  { key: "import1m_postgres_s", unit: "s", digits: 1, atMost: 90 },
  { key: "import_peak_rss_mb", unit: "MB", digits: 0, atMost: 300 },
  { key: "import_peak_file_mb", unit: "MB", digits: 0 },
  // What traces cost a signed-in check (tracing.ts): the proxy's and service's CPU together.
  {
    key: "tracing_off_cpu_us_per_check",
    unit: "µs CPU/check",
    digits: 0,
    spread: {
      fastest: "tracing_off_cpu_fastest_round_us",
      slowest: "tracing_off_cpu_slowest_round_us",
    },
  },
  {
    key: "tracing_on10_cpu_us_per_check",
    unit: "µs CPU/check",
    digits: 0,
    spread: {
      fastest: "tracing_on10_cpu_fastest_round_us",
      slowest: "tracing_on10_cpu_slowest_round_us",
    },
  },
  {
    key: TRACING_RATIO,
    unit: "×",
    digits: 3,
    atMost: TRACING_TARGETS.onOverOff,
    spread: {
      fastest: TRACING_RATIO_SPREAD.lowest,
      slowest: TRACING_RATIO_SPREAD.highest,
      of: "pairs",
    },
  },
  { key: TRACING_OFF_PATH, unit: "ns CPU/check", digits: 0 },
  {
    key: TRACING_OFF_RATIO,
    unit: "×",
    digits: 4,
    atMost: TRACING_TARGETS.offOverUntraced,
  },
  // The cluster on this one machine (cluster.ts): signed-in checks through nginx's https.
  { key: "cluster_rps", unit: "req/s", digits: 0 },
  { key: "cluster_p50_ms", unit: "ms", digits: 1 },
  { key: "cluster_p99_ms", unit: "ms", digits: 1 },
  { key: "cluster_node_cpu_us_per_req", unit: "µs CPU/req", digits: 0 },
  { key: "cluster_proxies_cpu_us_per_req", unit: "µs CPU/req", digits: 0 },
  { key: "cluster_services_cpu_us_per_req", unit: "µs CPU/req", digits: 0 },
  { key: "cluster_postgres_cpu_us_per_req", unit: "µs CPU/req", digits: 0 },
  { key: "cluster_redis_cpu_us_per_req", unit: "µs CPU/req", digits: 0 },
  { key: "cluster_nginx_cpu_us_per_req", unit: "µs CPU/req", digits: 0 },
  { key: "cluster_all_cpu_us_per_req", unit: "µs CPU/req", digits: 0 },
  { key: "cluster_idle_cpu_ms_per_s", unit: "ms CPU/s", digits: 0 },
  { key: "cluster_busy_cpu_us_per_req", unit: "µs CPU/req", digits: 0 },
  { key: "cluster_single_cpu_ratio", unit: "×", digits: 2, atMost: 2 },
  { key: "cluster_pg_statements_per_req", unit: "statements/req", digits: 2 },
  { key: "cluster_redis_commands_per_req", unit: "commands/req", digits: 2 },
  // The same cluster with one replica of each: the hops without five replicas' contention.
  { key: "cluster_one_each_rps", unit: "req/s", digits: 0 },
  {
    key: "cluster_one_each_node_cpu_us_per_req",
    unit: "µs CPU/req",
    digits: 0,
  },
  {
    key: "cluster_one_each_busy_cpu_us_per_req",
    unit: "µs CPU/req",
    digits: 0,
  },
  { key: "cluster_one_each_single_cpu_ratio", unit: "×", digits: 2 },
  { key: "cluster_replicas_node_cpu_ratio", unit: "×", digits: 2 },
  // The live registers (sources.ts): a fresh check with DVLA VES on beside none, in rounds; a
  // bulk check with 10% stale and its background refresh; the watched fleets' big refresh.
  {
    key: "sources_fresh_check_cpu_us",
    unit: "µs CPU/check",
    digits: 0,
    spread: {
      fastest: "sources_fresh_check_cpu_fastest_round_us",
      slowest: "sources_fresh_check_cpu_slowest_round_us",
    },
  },
  {
    key: "sources_off_check_cpu_us",
    unit: "µs CPU/check",
    digits: 0,
    spread: {
      fastest: "sources_off_check_cpu_fastest_round_us",
      slowest: "sources_off_check_cpu_slowest_round_us",
    },
  },
  {
    key: "sources_fresh_check_cpu_ratio",
    unit: "×",
    digits: 2,
    atMost: 1.05,
    spread: {
      fastest: "sources_fresh_check_cpu_ratio_lowest_round",
      slowest: "sources_fresh_check_cpu_ratio_highest_round",
    },
  },
  {
    key: "sources_fresh_check_register_requests",
    unit: "requests",
    digits: 0,
    atMost: 0,
  },
  // The same check over real HTTP, the server in a process of its own (sources-http.ts).
  {
    key: "sources_http_fresh_check_cpu_us",
    unit: "µs CPU/check",
    digits: 0,
    spread: {
      fastest: "sources_http_fresh_check_cpu_fastest_round_us",
      slowest: "sources_http_fresh_check_cpu_slowest_round_us",
    },
  },
  {
    key: "sources_http_off_check_cpu_us",
    unit: "µs CPU/check",
    digits: 0,
    spread: {
      fastest: "sources_http_off_check_cpu_fastest_round_us",
      slowest: "sources_http_off_check_cpu_slowest_round_us",
    },
  },
  {
    key: "sources_http_fresh_check_cpu_ratio",
    unit: "×",
    digits: 2,
    atMost: 1.05,
    spread: {
      fastest: "sources_http_fresh_check_cpu_ratio_lowest_round",
      slowest: "sources_http_fresh_check_cpu_ratio_highest_round",
    },
  },
  // The bulk check waits SOURCE_BULK_WAIT_MS (the service's default) at most; the check itself
  // on top, 500 ms.
  {
    key: "sources_bulk1000_answer_ms",
    unit: "ms",
    digits: 0,
    atMost: SOURCE_DEFAULTS.bulkWaitMs + 500,
  },
  { key: "sources_bulk1000_stale_items", unit: "items", digits: 0 },
  { key: "sources_bulk_background_per_s", unit: "req/s", digits: 2 },
  { key: "sources_bulk_configured_per_s", unit: "req/s", digits: 0 },
  {
    key: "sources_bulk_background_rate_share",
    unit: "×",
    digits: 3,
    atLeast: 0.95,
  },
  { key: "sources_bulk_429", unit: "429s", digits: 0, atMost: 0 },
  { key: "sources_refresh_vehicles", unit: "vehicles", digits: 0 },
  { key: "sources_refresh_configured_per_s", unit: "req/s", digits: 0 },
  { key: "sources_refresh_s", unit: "s", digits: 1 },
  { key: "sources_refresh_ideal_s", unit: "s", digits: 1 },
  { key: "sources_refresh_time_ratio", unit: "×", digits: 3, atMost: 1.05 },
  { key: "sources_refresh_429", unit: "429s", digits: 0, atMost: 0 },
  { key: "sources_refresh_stored", unit: "vehicles", digits: 0 },
  { key: "sources_refresh_rss_start_mb", unit: "MB", digits: 0 },
  { key: "sources_refresh_rss_middle_mb", unit: "MB", digits: 0 },
  { key: "sources_refresh_rss_end_mb", unit: "MB", digits: 0 },
  { key: "sources_refresh_heap_start_mb", unit: "MB", digits: 0 },
  { key: "sources_refresh_heap_middle_mb", unit: "MB", digits: 0 },
  { key: "sources_refresh_heap_end_mb", unit: "MB", digits: 0 },
];

/** A ratio of two figures of the same run, and its target when it has one. */
interface RatioSpec {
  key: string;
  of: string;
  to: string;
  /** The target: the ratio must be at least this. */
  atLeast?: number;
  /** The target: the ratio must be at most this. */
  atMost?: number;
}

// Throughput ratios are information, not targets: on two shared cores they mostly show how
// the servers split the cores. What a server costs is its CPU per request (COST_RATIOS).
export const RATIOS: readonly RatioSpec[] = [
  { key: "proxy_service_ratio", of: "proxy_rps", to: "service_rps" },
  { key: "proxy_nginx_ratio", of: "proxy_rps", to: "nginx_rps" },
  { key: "service_hello_ratio", of: "service_rps", to: "hello_rps" },
  // The target for PostgreSQL: its bulk p50 at most 1.5 times SQLite's.
  {
    key: "postgres_sqlite_bulk1000_ratio",
    of: "postgres_bulk1000_p50_ms",
    to: "sqlite_bulk1000_p50_ms",
    atMost: 1.5,
  },
  {
    key: "postgres_sqlite_lookup_ratio",
    of: "postgres_lookup_p50_ms",
    to: "sqlite_lookup_p50_ms",
  },
  // No target: on one 2-core machine the cluster shares the cores of one process (performance.md).
  { key: "cluster_proxy_ratio", of: "cluster_rps", to: "proxy_rps" },
];

/** "≥ 0.6", "≤ 1.5", or undefined for a ratio without a target. */
export function ratioTarget(spec: RatioSpec): string | undefined {
  if (spec.atLeast !== undefined) return `≥ ${spec.atLeast}`;
  if (spec.atMost !== undefined) return `≤ ${spec.atMost}`;
  return undefined;
}

/** Whether `value` meets the ratio's target; undefined when it has none. */
export function ratioMet(spec: RatioSpec, value: number): boolean | undefined {
  if (spec.atLeast !== undefined) return value >= spec.atLeast;
  if (spec.atMost !== undefined) return value <= spec.atMost;
  return undefined;
}

const present = (value: number | null | undefined): value is number =>
  typeof value === "number" && Number.isFinite(value);

export function formatNumber(value: number, digits: number): string {
  return value.toLocaleString("en-GB", {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

/** Each ratio, or null when either side was not measured (or the divisor is 0). */
export function ratios(figures: Figures): Record<string, number | null> {
  const result: Record<string, number | null> = {};
  for (const { key, of, to } of RATIOS) {
    const top = figures[of];
    const bottom = figures[to];
    result[key] =
      present(top) && present(bottom) && bottom !== 0 ? top / bottom : null;
  }
  return result;
}

/**
 * The rows for the server-side figures, then the ratios. A figure without a value shows its
 * note (skipped, failed) instead, and has no verdict: it was not met, but not missed either.
 */
export function serverRows(
  figures: Figures,
  notes: Record<string, string> = {},
): Row[] {
  const rows: Row[] = SERVER_FIGURES.map(
    ({ key, unit, digits, atMost, atLeast, spread }) => {
      const value = figures[key];
      const target =
        atMost !== undefined
          ? `≤ ${atMost} ${unit}`
          : atLeast !== undefined
            ? `≥ ${atLeast} ${unit}`
            : undefined;
      if (!present(value))
        return { figure: key, value: notes[key] ?? "not measured", target };
      const range = spread && rounds(figures, spread, digits);
      return {
        figure: key,
        value: `${formatNumber(value, digits)} ${unit}${range ?? ""}`,
        target,
        met:
          atMost !== undefined
            ? value <= atMost
            : atLeast !== undefined
              ? value >= atLeast
              : undefined,
      };
    },
  );
  for (const { key, of, to, atMost } of COST_RATIOS) {
    const value = figures[key];
    const spread = ratioSpreadKeys(key);
    rows.push({
      figure: `${costKeys(of).cpu} / ${costKeys(to).cpu}`,
      value: present(value)
        ? `${formatNumber(value, 2)}${rounds(figures, { fastest: spread.lowest, slowest: spread.highest }, 2) ?? ""}`
        : "not measured",
      target: atMost === undefined ? undefined : `≤ ${atMost}`,
      met: present(value) && atMost !== undefined ? value <= atMost : undefined,
    });
  }
  const measured = ratios(figures);
  for (const spec of RATIOS) {
    const value = measured[spec.key];
    rows.push({
      figure: `${spec.of} / ${spec.to}`,
      value: present(value) ? formatNumber(value, 2) : "not measured",
      target: ratioTarget(spec),
      met: present(value) ? ratioMet(spec, value) : undefined,
    });
  }
  return rows;
}

/** " (rounds 60-75)": a figure's fastest and slowest round, when both were measured. */
function rounds(
  figures: Figures,
  spread: Spread,
  digits: number,
): string | undefined {
  const fastest = figures[spread.fastest];
  const slowest = figures[spread.slowest];
  if (!present(fastest) || !present(slowest)) return undefined;
  return ` (${spread.of ?? "rounds"} ${formatNumber(fastest, digits)}-${formatNumber(slowest, digits)})`;
}

const verdict = (met: boolean | undefined) =>
  met === undefined ? "" : met ? "yes" : "**no**";

export function markdownTable(rows: readonly Row[]): string {
  const lines = [
    "| Figure | Value | Target | Met |",
    "| --- | ---: | --- | --- |",
    ...rows.map(
      (row) =>
        `| ${row.figure} | ${row.value} | ${row.target ?? ""} | ${verdict(row.met)} |`,
    ),
  ];
  return lines.join("\n");
}
