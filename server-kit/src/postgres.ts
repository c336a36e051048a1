/**
 * `@vics/server-kit/postgres`: what the service's and the proxy's PostgreSQL stores share:
 * a pool, and migrations that run once however many replicas start together.
 */
import pg from "pg";

// int8 (count(*), bigint ids) as numbers: VICS's counts and ids stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export type PgPool = pg.Pool;
export type PgClient = pg.PoolClient;

export interface PgPoolOptions {
  /** postgres://user:password@host:port/database */
  url: string;
  /** Connections this process may hold; default 10. */
  max?: number;
  /** Shown in pg_stat_activity, so an operator can tell the processes apart. */
  applicationName: string;
}

/**
 * A pool whose lost connections (PostgreSQL stopped or restarted) never crash the process:
 * the next query opens a new connection, and fails only if the server is still down.
 */
export function openPgPool(options: PgPoolOptions): PgPool {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max ?? 10,
    application_name: options.applicationName,
    // A query waits at most this long for a connection: a server that is down is a fast error.
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  pool.on("error", () => {
    // An idle client lost its connection; the pool has already discarded it.
  });
  // pg emits 'error' on a client whose connection ends, and the pool listens only while the
  // client is idle: one checked out (a transaction) would end the process, unheard. The
  // statement under way, or the next, fails with it, and the pool drops the client on release.
  pool.on("connect", (client) => {
    client.on("error", () => {});
  });
  return pool;
}

/** Runs `work` in one transaction on one connection; rolls back on any error. */
export async function inPgTransaction<T>(
  pool: PgPool,
  work: (client: PgClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

export interface Migrations {
  /** Names the lock and the table that records the steps run, e.g. "vics_service". */
  name: string;
  /** SQL, one step each, in order; a step never changes once released. */
  steps: readonly string[];
}

/**
 * Brings the database up to date, all steps in one transaction under a transaction-level
 * advisory lock: replicas that start together wait for the first, then find nothing to do.
 * Returns how many steps this call ran.
 */
export async function migratePg(
  pool: PgPool,
  migrations: Migrations,
  /**
   * More set-up in the same transaction and under the same lock (the proxy's grants), told the
   * newest step the database has, which is past this release's steps after a newer one ran.
   */
  after?: (client: PgClient, newestStep: number) => Promise<void>,
): Promise<number> {
  const table = pg.escapeIdentifier(`${migrations.name}_migrations`);
  return inPgTransaction(pool, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [
      migrations.name,
    ]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${table} (step integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const done = await stepsDone(client, table);
    const pending = migrations.steps.slice(done);
    for (const [index, sql] of pending.entries()) {
      await client.query(sql);
      await client.query(`INSERT INTO ${table} (step) VALUES ($1)`, [
        done + index + 1,
      ]);
    }
    await after?.(client, Math.max(done, migrations.steps.length));
    return pending.length;
  });
}

/**
 * How many of `name`'s steps the database has run, read without changing it (`scripts/db
 * status`); undefined when migratePg has never run there.
 */
export async function pgStepsRun(
  pool: PgPool,
  name: string,
): Promise<number | undefined> {
  const table = pg.escapeIdentifier(`${name}_migrations`);
  const { rows } = await pool.query<{ found: string | null }>(
    "SELECT to_regclass($1) AS found",
    [table],
  );
  if (rows[0]?.found == null) return undefined;
  return stepsDone(pool, table);
}

/** The newest step recorded in a migrations table (escaped already), 0 when none. */
async function stepsDone(
  db: PgPool | PgClient,
  table: string,
): Promise<number> {
  const { rows } = await db.query<{ done: number | null }>(
    `SELECT max(step) AS done FROM ${table}`,
  );
  return rows[0]?.done ?? 0;
}

/** Whether PostgreSQL answers: for the readiness checks. */
export async function pingPg(pool: PgPool): Promise<void> {
  await pool.query("SELECT 1");
}
