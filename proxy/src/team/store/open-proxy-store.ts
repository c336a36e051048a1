import { redactedUrl } from "@vics/server-kit/postgres-url";
import type { StoreEnv } from "../../env/store-env.ts";
import type { PgPool } from "@vics/server-kit/postgres";
import type { BatchObserver } from "./audit-group-commit.ts";
import type { ProxyStore } from "./proxy-store.ts";
import { openSqliteProxyStore } from "./sqlite/sqlite-proxy-store.ts";

/**
 * The store the proxy and `scripts/users` share: PostgreSQL when DATABASE_URL is set, else
 * the SQLite file at PROXY_DATABASE_PATH (created on first open). Either is migrated on open,
 * once however many processes open it together.
 */
export async function openProxyStore(
  env: Pick<
    StoreEnv,
    | "databasePath"
    | "databaseUrl"
    | "migrationDatabaseUrl"
    | "auditRetentionDays"
  >,
  /** Who holds the connections, in pg_stat_activity: "vics-proxy", "vics-users". */
  applicationName: string,
  observers: StoreObservers = {},
): Promise<ProxyStore> {
  if (env.databaseUrl === undefined)
    return openSqliteProxyStore({
      path: env.databasePath,
      auditRetentionDays: env.auditRetentionDays,
      auditWrites: observers.auditWrites,
    });
  // Loaded only here: the SQLite default starts without pg and the PostgreSQL store's modules.
  const { openPostgresProxyStore } =
    await import("./postgres/postgres-proxy-store.ts");
  return openPostgresProxyStore({
    url: env.databaseUrl,
    migrationUrl: env.migrationDatabaseUrl,
    auditRetentionDays: env.auditRetentionDays,
    applicationName,
    ...observers,
  });
}

/** What the metrics watch of a store, when METRICS_PORT is set: none otherwise. */
export interface StoreObservers {
  /** Each audit batch written (its seconds) or failed. */
  auditWrites?: BatchObserver;
  /** PostgreSQL's pool, given once the store is set up. */
  watchPool?: (pool: PgPool) => void;
}

/** Where the store is, for an operator's message: the file, or the URL without a password. */
export function storePlace(
  env: Pick<StoreEnv, "databasePath" | "databaseUrl">,
): string {
  return env.databaseUrl === undefined
    ? env.databasePath
    : redactedUrl(env.databaseUrl);
}

/**
 * For the entry points: the store, or one clear message on stderr (where it is and why it
 * cannot be opened, never a password) and exit 1.
 */
export async function openProxyStoreOrExit(
  env: StoreEnv,
  applicationName: string,
  cannotStart: string,
  observers: StoreObservers = {},
): Promise<ProxyStore> {
  try {
    return await openProxyStore(env, applicationName, observers);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    console.error(
      `${cannotStart}: its store at ${storePlace(env)} cannot be opened (${reason})`,
    );
    process.exit(1);
  }
}
