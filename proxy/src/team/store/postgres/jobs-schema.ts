// pg-boss's schema (`vics_jobs`, decision 043) as the owner of the proxy's tables makes it: where
// the proxy works as a lesser role, that role may not create a schema, so the owner's setup
// installs pg-boss's (or migrates it to this release's pg-boss) and grants the role what pg-boss
// does at run time: read and write its rows, call its functions. Nothing that changes its shape.
import pg from "pg";
import { PgBoss, type BamStatusSummary } from "pg-boss";
import pgBossPackage from "pg-boss/package.json" with { type: "json" };
import {
  openPgPool,
  type PgClient,
  type PgPool,
} from "@vics/server-kit/postgres";

export const JOBS_SCHEMA = "vics_jobs";

/** The version of pg-boss's schema this release's pg-boss runs on (it starts on no other). */
export const JOBS_SCHEMA_VERSION: number = pgBossPackage.pgboss.schema;

/** How long the owner waits for pg-boss's background migrations (index builds) to finish. */
const BACKGROUND_MIGRATIONS_MS = 60_000;

/**
 * Installs pg-boss's schema, or migrates it to this release's pg-boss (a newer one's is left as
 * it is), through the owner's pool (left open) or a URL of its own. One at a time, under a lock
 * of ours: pg-boss's own lets two first installs that start together both create the schema
 * (the second fails), since the one that waited still reads the catalog from before it waited.
 */
export async function installJobsSchema(
  owner: PgPool | string,
  applicationName = "vics-proxy (jobs schema)",
): Promise<void> {
  if (typeof owner === "string") {
    const pool = openPgPool({ url: owner, applicationName, max: 1 });
    try {
      return await installJobsSchema(pool);
    } finally {
      await pool.end();
    }
  }
  const client = await owner.connect();
  try {
    await client.query("SELECT pg_advisory_lock(hashtext($1))", [INSTALL_LOCK]);
    await installOn(client);
  } finally {
    await client
      .query("SELECT pg_advisory_unlock(hashtext($1))", [INSTALL_LOCK])
      .finally(() => client.release());
  }
}

const INSTALL_LOCK = `${JOBS_SCHEMA} install`;

/** pg-boss, on the one connection that holds the lock: its statements one after another. */
async function installOn(client: PgClient): Promise<void> {
  let last: Promise<unknown> = Promise.resolve();
  const boss = new PgBoss({
    db: {
      executeSql(text, values) {
        const run = last.then(() => client.query(text, values));
        last = run.catch(() => undefined);
        return run;
      },
    },
    schema: JOBS_SCHEMA,
    migrate: true,
    // Only the schema: no maintenance, no schedule, not an instance in pg-boss's registry.
    supervise: false,
    schedule: false,
    registerInstance: false,
  });
  // A background migration that fails is left pending, for the owner's next setup to retry.
  boss.on("error", () => undefined);
  await boss.start();
  try {
    await backgroundMigrations(boss);
  } finally {
    await boss.stop({ graceful: true, timeout: 5_000 });
  }
}

/**
 * Waits (a while, not forever) for what pg-boss migrates in the background after an upgrade: the
 * app role's pg-boss does not migrate, so only an owner's instance ever runs them.
 */
async function backgroundMigrations(boss: PgBoss): Promise<void> {
  const unfinished = (summary: BamStatusSummary[]) =>
    summary.some(
      (s) => (s.status === "pending" || s.status === "in_progress") && s.count,
    );
  const until = Date.now() + BACKGROUND_MIGRATIONS_MS;
  while (unfinished(await boss.getBamStatus()) && Date.now() < until)
    await new Promise((done) => setTimeout(done, 200));
}

/** What the app role may do in pg-boss's schema: its rows and functions, never its shape. */
export function jobsGrants(role: string): string {
  const app = pg.escapeIdentifier(role);
  return `
    GRANT USAGE ON SCHEMA ${JOBS_SCHEMA} TO ${app};
    GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${JOBS_SCHEMA} TO ${app};
    GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${JOBS_SCHEMA} TO ${app};
    GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA ${JOBS_SCHEMA} TO ${app};
  `;
}

/**
 * Whether pg-boss's schema is this release's, or a newer one's (left as it is), read as any role
 * granted its use: if not, the owner's setup installs or migrates it.
 */
export async function jobsSchemaInstalled(pool: PgPool): Promise<boolean> {
  try {
    const { rows } = await pool.query<{ table: string | null }>(
      "SELECT to_regclass($1) AS table",
      [`${JOBS_SCHEMA}.version`],
    );
    if (!rows[0]?.table) return false;
    const { rows: versions } = await pool.query<{ version: string }>(
      `SELECT version FROM ${JOBS_SCHEMA}.version`,
    );
    return versions.some(
      ({ version }) => Number(version) >= JOBS_SCHEMA_VERSION,
    );
  } catch (error) {
    // There, but not granted to this role yet: the owner's setup grants it.
    if ((error as { code?: string }).code === "42501") return false;
    throw error;
  }
}
