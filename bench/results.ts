// bench/results/latest.json and its dated copy: a flat object with every headline figure
// (RESULT_KEYS, the figures docs/performance.md describes; null when one was not measured, so a
// reader can tell "missing" from "zero"), the bench's other figures after them, and the machine,
// Node version and date of the run.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Figures } from "./figures.ts";

export const RESULT_KEYS = [
  // CPU per request beside the floors, median of interleaved rounds (costs.ts).
  "service_cpu_us_per_req",
  "minimal_service_cpu_us_per_req",
  "service_minimal_cpu_ratio",
  "proxy_cpu_us_per_req",
  "bff_sessions_cpu_us_per_req",
  "proxy_bff_cpu_ratio",
  "proxy_unsigned_cpu_us_per_req",
  "signed_in_unsigned_cpu_ratio",
  "nginx_cpu_us_per_req",
  "proxy_nginx_cpu_ratio",
  "service_rps",
  "service_p99_ms",
  "compliance_rps",
  "hello_rps",
  "proxy_rps",
  "nginx_rps",
  "bulk1000_p50_ms",
  "bulk_compliance1000_p50_ms",
  "fleet100k_node_s",
  "fleet100k_browser_s",
  "sweep100k_s",
  "initial_js_gzip_kb",
  "initial_js_received_kb",
  "csv100k_parse_s",
  "seed1m_s",
  "service_rss_mb",
  "audit_search_p50_ms",
  "audit_search_pg_p50_ms",
  "sqlite_bulk1000_p50_ms",
  "postgres_bulk1000_p50_ms",
  "postgres_sqlite_bulk1000_ratio",
  "cluster_rps",
  "cluster_proxy_ratio",
] as const;

export interface Machine {
  cores: number;
  memoryGiB: number;
}

export type Results = Record<string, number | null> & {
  machine: Machine;
  node: string;
  date: string;
};

// Three decimals: enough for a ratio, and no float noise (0.30000000000000004) in the file.
const rounded = (value: number | null | undefined) =>
  typeof value === "number" && Number.isFinite(value)
    ? Math.round(value * 1000) / 1000
    : null;

export function resultsJson(
  figures: Figures,
  context: { machine: Machine; node: string; date: Date },
): Results {
  const values: Record<string, number | null> = {};
  for (const key of RESULT_KEYS) values[key] = rounded(figures[key]);
  for (const [key, value] of Object.entries(figures))
    if (!(key in values)) values[key] = rounded(value);
  return {
    ...values,
    machine: context.machine,
    node: context.node,
    date: context.date.toISOString(),
  } as Results;
}

/** `2026-01-05T0930.json`, in UTC like the date inside it. */
export function datedFileName(date: Date): string {
  const iso = date.toISOString();
  return `${iso.slice(0, 10)}T${iso.slice(11, 13)}${iso.slice(14, 16)}.json`;
}

/**
 * Writes latest.json and the dated copy of `results` (the bench's Results, or any value JSON
 * holds: `npm run pages` writes its own); returns their paths.
 */
export function writeResults(
  directory: string,
  results: unknown,
  date: Date,
): string[] {
  mkdirSync(directory, { recursive: true });
  const text = `${JSON.stringify(results, null, 2)}\n`;
  const paths = [
    join(directory, "latest.json"),
    join(directory, datedFileName(date)),
  ];
  for (const path of paths) writeFileSync(path, text);
  return paths;
}
