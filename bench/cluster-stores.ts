// What a signed-in check asks of PostgreSQL and Redis in the cluster (issue 37, point 7), for
// `npm run bench`: PostgreSQL's own count of each statement run (pg_stat_statements, which the
// bench's cluster preloads) and Redis's own count of each command (INFO commandstats), read
// just before and just after the measured run, so per check they say what each store was
// asked. A PostgreSQL statement is a round trip; Redis counts the commands a Lua script runs
// too, so its round trips are its eval calls and the commands outside them. Both counters are
// the servers' own, not a count kept here.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createClient } from "redis";
import type { PostgresServer } from "@vics/server-kit/testing/postgres-server";

/** A store's counts at one moment: calls and time by statement or command. */
export type StoreCounts = Map<string, { calls: number; ms: number }>;

/** The server setting pg_stat_statements needs, for startCluster's postgresSettings. */
export const PG_STAT_STATEMENTS = {
  shared_preload_libraries: "pg_stat_statements",
  "pg_stat_statements.max": "1000",
};

export async function enablePgStatements(
  postgres: PostgresServer,
): Promise<void> {
  await postgres.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
}

/** Every statement PostgreSQL has counted, in every database, by its text. */
export async function pgStatementCounts(
  postgres: PostgresServer,
): Promise<StoreCounts> {
  const { rows } = await postgres.query(
    "SELECT query, calls, total_exec_time FROM pg_stat_statements",
  );
  const counts: StoreCounts = new Map();
  for (const row of rows as Array<{
    query: string;
    calls: number;
    total_exec_time: number;
  }>) {
    const key = row.query.replace(/\s+/g, " ").trim();
    const was = counts.get(key) ?? { calls: 0, ms: 0 };
    counts.set(key, {
      calls: was.calls + Number(row.calls),
      ms: was.ms + Number(row.total_exec_time),
    });
  }
  return counts;
}

/** Redis's INFO commandstats, by command: `cmdstat_get:calls=3,usec=12,...`. */
export function parseCommandStats(info: string): StoreCounts {
  const counts: StoreCounts = new Map();
  for (const line of info.split(/\r?\n/)) {
    const match = /^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/.exec(line);
    if (match)
      counts.set(match[1]!, {
        calls: Number(match[2]),
        ms: Number(match[3]) / 1000,
      });
  }
  return counts;
}

/** Redis's process id, from INFO server, and a reader of its command counts. */
export async function redisCounter(url: string): Promise<{
  pid: number | undefined;
  counts(): Promise<StoreCounts>;
  close(): Promise<void>;
}> {
  const client = createClient({ url });
  client.on("error", () => {});
  await client.connect();
  const server = String(await client.sendCommand(["INFO", "server"]));
  const pid = /^process_id:(\d+)/m.exec(server)?.[1];
  return {
    pid: pid === undefined ? undefined : Number(pid),
    counts: async () =>
      parseCommandStats(
        String(await client.sendCommand(["INFO", "commandstats"])),
      ),
    close: async () => {
      await client.close();
    },
  };
}

/** The postmaster's process id, from its pid file; undefined when it is not running. */
export function postmasterPid(dataDir: string): number | undefined {
  try {
    const first = readFileSync(join(dataDir, "postmaster.pid"), "utf8").split(
      "\n",
    )[0];
    const pid = Number(first);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

export interface PerRequest {
  /** All calls between the two readings, per request. */
  calls: number;
  /** The server's own time in them, in µs per request. */
  us: number;
  /** The most called, most first: at most `top` of them. */
  top: Array<{ name: string; calls: number; us: number }>;
}

/**
 * What happened between two readings, per request. `skip` leaves out the reading's own
 * statement or command (the bench's reads of pg_stat_statements and INFO).
 */
export function perRequest(
  before: StoreCounts,
  after: StoreCounts,
  requests: number,
  {
    top = 8,
    skip = () => false,
  }: { top?: number; skip?: (name: string) => boolean } = {},
): PerRequest {
  const rows: PerRequest["top"] = [];
  for (const [name, now] of after) {
    if (skip(name)) continue;
    const was = before.get(name) ?? { calls: 0, ms: 0 };
    const calls = now.calls - was.calls;
    if (calls <= 0) continue;
    rows.push({
      name,
      calls: calls / requests,
      us: ((now.ms - was.ms) * 1000) / requests,
    });
  }
  rows.sort((a, b) => b.calls - a.calls || b.us - a.us);
  return {
    calls: rows.reduce((sum, row) => sum + row.calls, 0),
    us: rows.reduce((sum, row) => sum + row.us, 0),
    top: rows.slice(0, top),
  };
}
