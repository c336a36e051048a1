// What a backup holds, counted: the manifest records it, and a restore checks it. The same SQL
// on both engines (the stores name their tables alike on SQLite and PostgreSQL).
import type { StoreName } from "./stores.ts";

export interface ServiceCounts {
  vehicles: number;
  apiKeys: number;
}

export interface ProxyCounts {
  users: number;
  /** Always 0 in a backup: sessions are left out (docs/decisions/068-backups-leave-sessions-out.md). */
  sessions: number;
  auditEvents: number;
  /** The newest event (the highest id) and when it happened; null when there is none. */
  lastAuditEvent: { id: number; at: string } | null;
  fleets: number;
  fleetVehicles: number;
}

export interface StoreCounts {
  service: ServiceCounts;
  proxy: ProxyCounts;
}

/** Runs one SELECT and returns its rows (every engine's driver behind one shape). */
export type Select = (sql: string) => Promise<Array<Record<string, unknown>>>;

async function count(select: Select, table: string): Promise<number> {
  const [row] = await select(`SELECT count(*) AS n FROM ${table}`);
  return Number(row?.n);
}

export async function serviceCounts(select: Select): Promise<ServiceCounts> {
  return {
    vehicles: await count(select, "vehicles"),
    apiKeys: await count(select, "api_keys"),
  };
}

export async function proxyCounts(select: Select): Promise<ProxyCounts> {
  const [last] = await select(
    // By time, which both engines index (PostgreSQL's partitions have no index led by id).
    "SELECT id, at FROM audit_events ORDER BY at DESC, id DESC LIMIT 1",
  );
  return {
    users: await count(select, "users"),
    sessions: await count(select, "sessions"),
    auditEvents: await count(select, "audit_events"),
    lastAuditEvent: last
      ? { id: Number(last.id), at: new Date(Number(last.at)).toISOString() }
      : null,
    fleets: await count(select, "fleets"),
    fleetVehicles: await count(select, "fleet_vehicles"),
  };
}

/** One store's counts, by its name. */
export const countStore = (
  name: StoreName,
  select: Select,
): Promise<ServiceCounts | ProxyCounts> =>
  name === "service" ? serviceCounts(select) : proxyCounts(select);

/** Lines saying where `actual` differs from `expected`, or none when they are equal. */
export function countDifferences(
  store: StoreName,
  expected: object,
  actual: object,
): string[] {
  const want = expected as Record<string, unknown>;
  const got = actual as Record<string, unknown>;
  return Object.keys(want)
    .filter((key) => JSON.stringify(want[key]) !== JSON.stringify(got[key]))
    .map(
      (key) =>
        `${store} ${key}: the backup's manifest says ${JSON.stringify(want[key])}, the restored store has ${JSON.stringify(got[key])}`,
    );
}
