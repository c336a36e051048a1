import { openPgPool, pingPg, type PgPool } from "@vics/server-kit/postgres";
import type { BatchObserver } from "../audit-group-commit.ts";
import type { ProxyStore } from "../proxy-store.ts";
import { auditQueries } from "./audit-queries.ts";
import {
  isPostgresUnreachable,
  reachingPostgres,
  storeError,
} from "@vics/server-kit/postgres-errors";
import { postgresKysely, sqlOn } from "./database.ts";
import { fleetQueries } from "./fleet-queries.ts";
import { watchQueries } from "./watch-queries.ts";
import { deliveryQueries } from "./delivery-queries.ts";
import {
  MIGRATION_HINT,
  setUpAsOwner,
  setUpState,
  type SetUpState,
} from "./owner-setup.ts";
import { kyselyQueries } from "../kysely/kysely-queries.ts";

export interface PostgresProxyStoreOptions {
  /** The role the proxy works as (DATABASE_URL). */
  url: string;
  /**
   * The owner of the proxy's tables (MIGRATION_DATABASE_URL), when the proxy works as a lesser
   * role: it migrates, and grants the proxy's role what it needs. Unset: `url`'s role owns them.
   */
  migrationUrl?: string;
  auditRetentionDays: number;
  /** Shown in pg_stat_activity: which process holds a connection. */
  applicationName: string;
  /** Connections this process may hold; default 10. */
  maxConnections?: number;
  /** Told of each audit batch written or failed (the metrics). */
  auditWrites?: BatchObserver;
  /** Given the store's pool once it is set up (the metrics watch it). */
  watchPool?: (pool: PgPool) => void;
}

/**
 * The proxy's store in PostgreSQL, shared by every replica. Opening brings the schema up to
 * date (once, however many replicas start together). PostgreSQL down, at open or later, is a
 * DependencyUnavailableError; the pool reconnects by itself once it is back.
 */
export async function openPostgresProxyStore(
  options: PostgresProxyStoreOptions,
): Promise<ProxyStore> {
  const pool = openPgPool({
    url: options.url,
    applicationName: options.applicationName,
    max: options.maxConnections,
  });
  try {
    await setUp(pool, options);
  } catch (error) {
    await pool.end();
    throw storeError(error);
  }
  const sql = sqlOn(pool);
  // One Kysely for every part, as SQLite's store has.
  const kysely = postgresKysely(pool);
  const { appendAudit, searchAudit, pruneAudit, drain } = auditQueries(
    sql,
    kysely.db,
    options.auditRetentionDays,
    options.auditWrites,
  );
  options.watchPool?.(pool);
  let closing: Promise<void> | undefined;
  return {
    ...kyselyQueries(kysely),
    ...fleetQueries(pool, sql, kysely),
    ...watchQueries(pool, sql, kysely),
    ...deliveryQueries(pool, sql),
    appendAudit,
    searchAudit,
    pruneAudit,
    ping: () => reachingPostgres(() => pingPg(pool)),
    close() {
      // The events already appended are written before the connections go.
      closing ??= drain().then(() => pool.end());
      return closing;
    },
  };
}

async function setUp(pool: PgPool, options: PostgresProxyStoreOptions) {
  const { auditRetentionDays } = options;
  if (options.migrationUrl !== undefined) {
    const owner = openPgPool({
      url: options.migrationUrl,
      applicationName: `${options.applicationName} (migrations)`,
      max: 1,
    });
    try {
      const appRole = await currentRole(pool);
      await setUpAsOwner(owner, {
        auditRetentionDays,
        // The same role in both URLs owns the tables: nothing to grant, nothing to revoke.
        appRole: appRole === (await currentRole(owner)) ? undefined : appRole,
      });
    } finally {
      await owner.end();
    }
    return;
  }
  // A proxy given only its lesser role's URL starts on a database its owner has set up.
  const state = await setUpState(pool, auditRetentionDays).catch(notSetUp);
  if (state.migrated && state.retentionRecorded && state.jobsInstalled) return;
  try {
    await setUpAsOwner(pool, { auditRetentionDays });
  } catch (error) {
    if ((error as { code?: string }).code !== "42501") throw error;
    // Only the owner records a retention: the database keeps its own, and pruning never
    // deletes an event that either retention keeps.
    if (state.migrated) return;
    throw new Error(
      `DATABASE_URL's role cannot set up the proxy's tables (${(error as Error).message}): ${MIGRATION_HINT}`,
      { cause: error },
    );
  }
}

/** No tables yet, or not granted yet: set up. PostgreSQL down: the open fails. */
const notSetUp = (error: unknown): SetUpState => {
  if (isPostgresUnreachable(error)) throw error;
  return { migrated: false, retentionRecorded: false, jobsInstalled: false };
};

async function currentRole(pool: PgPool): Promise<string> {
  const { rows } = await pool.query<{ role: string }>(
    "SELECT current_user AS role",
  );
  return rows[0]!.role;
}
