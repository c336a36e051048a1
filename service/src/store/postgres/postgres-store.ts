import { openPgPool, pingPg, type PgPool } from "@vics/server-kit/postgres";
import type { Store } from "../store.ts";
import { createKeyQueries } from "./key-queries.ts";
import { readMeta, SYNTHETIC_FLEET } from "./meta.ts";
import { reachingPostgres } from "@vics/server-kit/postgres-errors";
import { createVehicleQueries } from "./vehicle-queries.ts";
import { dataInfoFromMeta } from "../data-info.ts";
import {
  DATA_INFO_TTL_MS,
  heldDataInfo,
  invalidatingOnApply,
} from "../held-data-info.ts";
import { postgresImportStore } from "./import-writer.ts";
import { postgresFetchedStore } from "./fetched-writer.ts";

export interface PostgresStoreOptions {
  /** postgres:// or postgresql:// */
  url: string;
  /** Connections this process may hold; default 10. */
  poolSize?: number;
  /** Shown in pg_stat_activity: which process holds a connection. */
  applicationName?: string;
  /** Given the store's pool once migrated and seeded (the metrics watch it). */
  watchPool?: (pool: PgPool) => void;
}

/** A pool for the store and for `migratePostgres` and `seedPostgresFleet` before it. */
export function openStorePool(options: PostgresStoreOptions): PgPool {
  return openPgPool({
    url: options.url,
    max: options.poolSize,
    applicationName: options.applicationName ?? "vics-service",
  });
}

/**
 * The store over a pool whose database is migrated (`migratePostgres`); closing the store ends
 * the pool. Every call that cannot reach PostgreSQL throws DependencyUnavailableError (a 503),
 * and the next call after PostgreSQL is back works: the pool opens new connections by itself.
 */
export function postgresStore(
  pool: PgPool,
  options: { now?: () => number } = {},
): Store {
  const vehicles = createVehicleQueries(pool);
  const keys = createKeyQueries(pool);
  const imports = postgresImportStore(pool);
  const fetched = postgresFetchedStore(pool);
  let closed: Promise<void> | undefined;
  // Held for DATA_INFO_TTL_MS, or until this store writes (held-data-info.ts's rule).
  const dataInfo = heldDataInfo(
    () =>
      reachingPostgres(async () => {
        const { rows } = await pool.query<{ key: string; value: string }>(
          "SELECT key, value FROM meta",
        );
        const meta = new Map(rows.map((row) => [row.key, row.value]));
        return dataInfoFromMeta((key) => meta.get(key));
      }),
    { ttlMs: DATA_INFO_TTL_MS, now: options.now },
  );
  return {
    findVehicle: (registration, knownAt) =>
      reachingPostgres(() => vehicles.findVehicle(registration, knownAt)),
    findInsurance: (registration, knownAt) =>
      reachingPostgres(() => vehicles.findInsurance(registration, knownAt)),
    findVehicles: (registrations, knownAt) =>
      reachingPostgres(() => vehicles.findVehicles(registrations, knownAt)),
    findInsurances: (registrations, knownAt) =>
      reachingPostgres(() => vehicles.findInsurances(registrations, knownAt)),
    // DuplicateKeyNameError passes through: it is the caller's mistake, not an outage.
    createKey: (key) => reachingPostgres(() => keys.createKey(key)),
    findKeyByHash: (keyHash) =>
      reachingPostgres(() => keys.findKeyByHash(keyHash)),
    listKeys: () => reachingPostgres(() => keys.listKeys()),
    revokeKey: (name, revokedAt) =>
      reachingPostgres(() => keys.revokeKey(name, revokedAt)),
    holdsSyntheticFleet: () =>
      reachingPostgres(
        async () => (await readMeta(pool, "fleet")) === SYNTHETIC_FLEET,
      ),
    dataInfo: dataInfo.read,
    startImport: async (kind) =>
      invalidatingOnApply(
        await reachingPostgres(() => imports.startImport(kind)),
        dataInfo.invalidate,
      ),
    appliedImport: (kind, sha256) =>
      reachingPostgres(() => imports.appliedImport(kind, sha256)),
    recordImport: (record, rejects) =>
      reachingPostgres(() => imports.recordImport(record, rejects)),
    listImports: (limit) => reachingPostgres(() => imports.listImports(limit)),
    findImport: (id) => reachingPostgres(() => imports.findImport(id)),
    importRejects: (id) => reachingPostgres(() => imports.importRejects(id)),
    // The data's span may have moved, written or not: the next check reads it again.
    recordFetched: (batch) =>
      reachingPostgres(() => fetched.recordFetched(batch)).finally(
        dataInfo.invalidate,
      ),
    freshness: (registrations) =>
      reachingPostgres(() => fetched.freshness(registrations)),
    countStale: (kind, olderThan) =>
      reachingPostgres(() => fetched.countStale(kind, olderThan)),
    recordSourceOutcome: (outcome) =>
      reachingPostgres(() => fetched.recordSourceOutcome(outcome)),
    sourceStates: () => reachingPostgres(() => fetched.sourceStates()),
    ping: () => reachingPostgres(() => pingPg(pool)),
    close: () => (closed ??= pool.end()),
  };
}
