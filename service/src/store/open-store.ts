import { existsSync } from "node:fs";
import { ukDate } from "@vics/shared";
import type { PgPool } from "@vics/server-kit/postgres";
import { redactedUrl } from "@vics/server-kit/postgres-url";
import type { Env } from "../env.ts";
import { DEFAULT_FLEET_SEED, DEFAULT_FLEET_SIZE } from "../seed/fleet.ts";
import type { SeedOptions } from "../seed/seed-data.ts";
import type { ImportStore } from "./import-store.ts";
import { openDatabase, openImportDatabase } from "./sqlite/database.ts";
import { sqliteImportStore } from "./sqlite/import-writer.ts";
import { migrateSqlite, readMeta } from "./sqlite/schema.ts";
import { SYNTHETIC_FLEET, seedSqliteFleet } from "./sqlite/seed-database.ts";
import { openSqliteStore } from "./sqlite/sqlite-store.ts";
import type { SeedOutcome, Store } from "./store.ts";

/** Which database, and what a start does to it. */
export interface DatabaseSettings {
  /** PostgreSQL (postgres://…) when set; else the SQLite file at `path`. */
  url?: string;
  path: string;
  /** Connections to PostgreSQL; default 10. */
  poolSize?: number;
  /**
   * Seed the synthetic fleet when the database holds no vehicles. Default: on with SQLite,
   * off with PostgreSQL (env.ts, SEED_SYNTHETIC_FLEET, says why).
   */
  seedSyntheticFleet?: boolean;
  /** The synthetic fleet's size when it is seeded; default DEFAULT_FLEET_SIZE. */
  fleetSize?: number;
  /** Shown in pg_stat_activity, so an operator can tell the processes apart. */
  applicationName?: string;
  /** Given the store's PostgreSQL pool once it is open (the metrics watch it); unset: nothing. */
  watchPool?: (pool: PgPool) => void;
}

export function databaseSettings(
  env: Pick<
    Env,
    | "DATABASE_URL"
    | "DATABASE_PATH"
    | "DATABASE_POOL_SIZE"
    | "SEED_SYNTHETIC_FLEET"
  >,
  applicationName: string,
): DatabaseSettings {
  return {
    url: env.DATABASE_URL,
    path: env.DATABASE_PATH,
    poolSize: env.DATABASE_POOL_SIZE,
    seedSyntheticFleet: env.SEED_SYNTHETIC_FLEET,
    applicationName,
  };
}

/** The fleet a start or `scripts/db seed` writes: the default size and seed, dated today (UK). */
export function fleetOptions(
  now: Date,
  fleetSize = DEFAULT_FLEET_SIZE,
): SeedOptions {
  return {
    fleetSize,
    seed: DEFAULT_FLEET_SEED,
    today: ukDate(now),
    seededAt: now.toISOString(),
  };
}

/** Where the database is, for an operator: the file, or the URL without its password. */
export const databasePlace = (settings: DatabaseSettings): string =>
  settings.url === undefined ? settings.path : redactedUrl(settings.url);

/** Where the database is, as the log lines name it: the file, or the server and database. */
export function databaseFields(
  settings: DatabaseSettings,
): { databasePath: string } | { database: string } {
  return settings.url === undefined
    ? { databasePath: settings.path }
    : { database: redactedUrl(settings.url) };
}

// Loaded only for DATABASE_URL: the SQLite default starts without pg and the PostgreSQL store.
const postgresDatabase = () => import("./postgres/postgres-database.ts");

const postgresOptions = (url: string, settings: DatabaseSettings) => ({
  url,
  poolSize: settings.poolSize,
  applicationName: settings.applicationName,
  watchPool: settings.watchPool,
});

export interface OpenHooks {
  /** Told when this open seeds the database, before it starts (seconds). */
  onSeeding?: () => void;
  /** Told when this open ran migration steps on PostgreSQL. */
  onMigrated?: (steps: number) => void;
}

/**
 * The store the service and the CLIs share: DATABASE_URL's PostgreSQL, else the SQLite file.
 * Brings the schema up to date (migrations), then seeds the synthetic fleet when the
 * database holds no vehicles and the settings ask for it.
 */
export async function openStore(
  settings: DatabaseSettings,
  now: Date,
  hooks: OpenHooks = {},
): Promise<Store> {
  const seed =
    (settings.seedSyntheticFleet ?? settings.url === undefined)
      ? fleetOptions(now, settings.fleetSize)
      : undefined;
  if (settings.url === undefined)
    return openSqliteStore({
      path: settings.path,
      seed,
      onSeeding: hooks.onSeeding,
    });
  return (await postgresDatabase()).openPostgresDatabase(
    postgresOptions(settings.url, settings),
    seed,
    hooks,
  );
}

/** `scripts/db migrate`: brings the schema up to date; returns how many steps ran. */
export async function migrateDatabase(
  settings: DatabaseSettings,
): Promise<number> {
  if (settings.url === undefined) {
    const db = openDatabase(settings.path);
    try {
      return migrateSqlite(db);
    } finally {
      db.close();
    }
  }
  return (await postgresDatabase()).migratePostgresDatabase(
    postgresOptions(settings.url, settings),
  );
}

/**
 * `scripts/db seed`: migrates, then seeds `fleet` into a database that holds no vehicles, in
 * one transaction.
 */
export async function seedDatabase(
  settings: DatabaseSettings,
  fleet: SeedOptions,
  onSeeding?: () => void,
): Promise<SeedOutcome> {
  if (settings.url === undefined) {
    const db = openDatabase(settings.path);
    try {
      migrateSqlite(db);
      return seedSqliteFleet(db, fleet, onSeeding);
    } finally {
      db.close();
    }
  }
  return (await postgresDatabase()).seedPostgresDatabase(
    postgresOptions(settings.url, settings),
    fleet,
    onSeeding,
  );
}

/** Where `scripts/import` writes: the import store, and whether it holds the synthetic fleet. */
export interface ImportTarget {
  imports: ImportStore;
  holdsSyntheticFleet(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * `scripts/import`'s database, migrated: DATABASE_URL's PostgreSQL, else the SQLite file,
 * opened for streaming a file of any size (no memory map, a small page cache).
 */
export async function openImportTarget(
  settings: DatabaseSettings,
): Promise<ImportTarget> {
  if (settings.url === undefined) {
    const db = openImportDatabase(settings.path);
    try {
      migrateSqlite(db);
    } catch (error) {
      db.close();
      throw error;
    }
    return {
      imports: sqliteImportStore(db),
      holdsSyntheticFleet: async () =>
        readMeta(db, "fleet") === SYNTHETIC_FLEET,
      close: async () => db.close(),
    };
  }
  return (await postgresDatabase()).openPostgresImportTarget(
    postgresOptions(settings.url, settings),
  );
}

/** What an operator reads when the database cannot be used: where, the reason, a way out. */
export function databaseOpenMessage(
  settings: DatabaseSettings,
  error: unknown,
): string {
  const reason = error instanceof Error ? error.message : String(error);
  const cannot = `Cannot open the database at ${databasePlace(settings)}: ${reason}.\n`;
  return settings.url !== undefined
    ? cannot +
        "Check DATABASE_URL, that PostgreSQL is running and reachable from here, and that " +
        "its user may connect and create tables in that database."
    : cannot +
        "Check DATABASE_PATH. If the file is damaged or is not a VICS database, move it aside " +
        "and a fresh one will be created and seeded on the next start.";
}

/** What the entry points hear about a start's work on the database: the event, and where. */
export type Announce = (
  message: string,
  fields: ({ databasePath: string } | { database: string }) & {
    durationMs?: number;
    steps?: number;
  },
) => void;

/**
 * For the entry points: announces a seeding (it takes seconds) and migrations, and on a
 * database that cannot be opened, migrated or seeded prints one clear message, no stack,
 * and exits 1.
 */
export async function openStoreOrExit(
  settings: DatabaseSettings,
  now: Date,
  announce: Announce,
): Promise<Store> {
  const where = databaseFields(settings);
  const sqlite = settings.url === undefined;
  const firstStart =
    sqlite && (settings.path === ":memory:" || !existsSync(settings.path));
  const started = performance.now();
  let seeded = false;
  // Said whenever the database is seeded: on a new file, and on a file a crash left without
  // its fleet (the seeding is one transaction, so nothing of it was kept).
  const onSeeding = () => {
    seeded = true;
    announce(
      firstStart
        ? "creating and seeding the database (first start)"
        : "seeding the database: it holds no vehicles yet (an earlier seeding did not finish)",
      where,
    );
  };
  try {
    const store = await openStore(settings, now, {
      onSeeding: sqlite
        ? onSeeding
        : () => {
            seeded = true;
            announce(
              "seeding the database: it holds no vehicles yet (SEED_SYNTHETIC_FLEET)",
              where,
            );
          },
      onMigrated: (steps) => announce("database migrated", { ...where, steps }),
    });
    // The operations guide promises "seconds, not minutes": say how long it took, every time it happens.
    if (seeded)
      announce(sqlite ? "database created and seeded" : "database seeded", {
        ...where,
        durationMs: Math.round(performance.now() - started),
      });
    return store;
  } catch (error) {
    console.error(databaseOpenMessage(settings, error));
    process.exit(1);
  }
}
