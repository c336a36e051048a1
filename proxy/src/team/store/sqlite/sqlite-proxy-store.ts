import type { BatchObserver } from "../audit-group-commit.ts";
import type { ProxyStore } from "../proxy-store.ts";
import { auditQueries } from "./audit-queries.ts";
import { openDatabase, sqliteKysely } from "./database.ts";
import { fleetQueries } from "./fleet-queries.ts";
import { watchQueries } from "./watch-queries.ts";
import { deliveryQueries } from "./delivery-queries.ts";
import { migrate } from "./schema.ts";
import { kyselyQueries } from "../kysely/kysely-queries.ts";

export interface SqliteProxyStoreOptions {
  /** A file path, or ":memory:" in tests. */
  path: string;
  auditRetentionDays: number;
  /**
   * Tests only: awaited after each committed chunk of a fleet's save or update, so a test can
   * stop one part way through as a crash would (a promise that never settles).
   */
  afterFleetChunk?: () => Promise<void> | void;
  /** Told of each audit batch written or failed (the metrics). */
  auditWrites?: BatchObserver;
}

/** The proxy's store in one SQLite file (PROXY_DATABASE_PATH), created on first open. */
export function openSqliteProxyStore(
  options: SqliteProxyStoreOptions,
): ProxyStore {
  const db = openDatabase(options.path);
  try {
    migrate(db);
    // One Kysely for every part: one connection object, one cache of prepared statements.
    const kysely = sqliteKysely(db);
    return {
      ...kyselyQueries(kysely),
      ...auditQueries(
        db,
        options.auditRetentionDays,
        kysely,
        options.auditWrites,
      ),
      ...fleetQueries(db, kysely, options.afterFleetChunk),
      ...watchQueries(db, kysely),
      ...deliveryQueries(db),
      async ping() {
        db.prepare("SELECT 1").get();
      },
      async close() {
        db.close();
      },
    };
  } catch (error) {
    db.close();
    throw error;
  }
}
