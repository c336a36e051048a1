// `scripts/db status`: which schema steps the service's database and the proxy's store have
// run, and which are pending, read without changing either (nothing is created or migrated).
// The root's, not a workspace's: it reads both servers' settings and steps, and neither
// server imports the other. Exit 0 when both were read, 1 when one could not be.
import { fail, readCliArgs } from "@vics/server-kit/cli";
import { openPgPool, pgStepsRun } from "@vics/server-kit/postgres";
import { sqliteStepsRunAt } from "@vics/server-kit/sqlite-migrations";
import { parseStoreEnv } from "../proxy/src/env/store-env.ts";
import { storePlace } from "../proxy/src/team/store/open-proxy-store.ts";
import * as proxyPostgres from "../proxy/src/team/store/postgres/schema.ts";
import { MIGRATIONS as PROXY_SQLITE_STEPS } from "../proxy/src/team/store/sqlite/schema.ts";
import { loadEnv } from "../service/src/env.ts";
import {
  databaseOpenMessage,
  databasePlace,
  databaseSettings,
} from "../service/src/store/open-store.ts";
import * as servicePostgres from "../service/src/store/postgres/migrations.ts";
import { STEPS as SERVICE_SQLITE_STEPS } from "../service/src/store/sqlite/schema.ts";
import {
  describeMigrations,
  type MigrationStatus,
} from "./migration-status.ts";

const USAGE = `Usage: scripts/db status
Says which schema steps the service's database (DATABASE_URL, else DATABASE_PATH) and the
proxy's store (DATABASE_URL, else PROXY_DATABASE_PATH) have run, and which are pending.`;

const { positionals } = readCliArgs(USAGE, {});
if (positionals.length > 0)
  fail(`Unknown argument "${positionals.join(" ")}".\n${USAGE}`, 2);

/** Steps run in the PostgreSQL database at `url` under `name`; the pool is closed after. */
async function pgSteps(url: string, name: string) {
  const pool = openPgPool({ url, max: 1, applicationName: "vics-db-status" });
  try {
    return await pgStepsRun(pool, name);
  } finally {
    await pool.end();
  }
}

/** A server's two ways to keep its steps: a SQLite file, or a PostgreSQL database. */
interface Engines {
  /** The PostgreSQL URL to read the steps with; undefined when the server uses SQLite. */
  url: string | undefined;
  path: string;
  sqliteSteps: number;
  postgres: { MIGRATIONS_NAME: string; MIGRATIONS: readonly unknown[] };
}

/** Reads one server's steps on whichever engine its settings name. */
async function migrationStatus(
  words: Pick<MigrationStatus, "whose" | "server" | "place" | "runBy">,
  { url, path, sqliteSteps, postgres }: Engines,
): Promise<MigrationStatus> {
  if (url === undefined)
    return {
      ...words,
      engine: "SQLite",
      ran: sqliteStepsRunAt(path),
      steps: sqliteSteps,
    };
  return {
    ...words,
    engine: "PostgreSQL",
    ran: await pgSteps(url, postgres.MIGRATIONS_NAME),
    steps: postgres.MIGRATIONS.length,
  };
}

const settings = databaseSettings(loadEnv(), "vics-db-status");
try {
  const service = await migrationStatus(
    {
      whose: "The service's database",
      server: "the service",
      place: databasePlace(settings),
      runBy: "`scripts/db migrate` or the service's next start",
    },
    {
      url: settings.url,
      path: settings.path,
      sqliteSteps: SERVICE_SQLITE_STEPS.length,
      postgres: servicePostgres,
    },
  );
  console.log(describeMigrations(service));
} catch (error) {
  fail(databaseOpenMessage(settings, error), 1);
}

const proxyEnv = parseStoreEnv(process.env);
if (!proxyEnv.ok)
  fail(
    `Cannot read the proxy's store settings:\n  - ${proxyEnv.errors.join("\n  - ")}`,
    1,
  );
const { databaseUrl, migrationDatabaseUrl, databasePath } = proxyEnv.env;
const proxyPlace = storePlace(proxyEnv.env);
try {
  const proxy = await migrationStatus(
    {
      whose: "The proxy's store",
      server: "the proxy",
      place: proxyPlace,
      runBy: "the proxy's next start or `scripts/users list`",
    },
    {
      // The owner's role when there is one: it made the record, and may surely read it.
      url:
        databaseUrl === undefined
          ? undefined
          : (migrationDatabaseUrl ?? databaseUrl),
      path: databasePath,
      sqliteSteps: PROXY_SQLITE_STEPS.length,
      postgres: proxyPostgres,
    },
  );
  console.log(describeMigrations(proxy));
} catch (error) {
  const reason = error instanceof Error ? error.message : String(error);
  fail(`Cannot read the proxy's store at ${proxyPlace}: ${reason}.`, 1);
}
