import { existsSync } from "node:fs";
import { ukDate } from "@vics/shared";
import { DEFAULT_FLEET_SEED, DEFAULT_FLEET_SIZE } from "../seed/fleet.ts";
import { openSqliteStore } from "./sqlite/sqlite-store.ts";
import type { Store } from "./store.ts";

/** The store the service and the keys CLI share: creates and seeds the database if needed. */
export function openStore(
  databasePath: string,
  now: Date,
  onSeeding?: () => void,
): Store {
  return openSqliteStore({
    path: databasePath,
    seed: {
      fleetSize: DEFAULT_FLEET_SIZE,
      seed: DEFAULT_FLEET_SEED,
      today: ukDate(now),
    },
    onSeeding,
  });
}

/** What an operator reads when the database cannot be used: the path, the reason, a way out. */
export function databaseOpenMessage(
  databasePath: string,
  error: unknown,
): string {
  const reason = error instanceof Error ? error.message : String(error);
  return (
    `Cannot open the database at ${databasePath}: ${reason}.\n` +
    "Check DATABASE_PATH. If the file is damaged or is not a VICS database, move it aside " +
    "and a fresh one will be created and seeded on the next start."
  );
}

/** What the entry points hear about a first start: the event, and where and how long. */
export type Announce = (
  message: string,
  fields: { databasePath: string; durationMs?: number },
) => void;

/**
 * For the entry points: announces a first-start seeding (it takes seconds), and on a
 * database that cannot be opened or seeded prints one clear message, no stack, and exits 1.
 */
export function openStoreOrExit(
  databasePath: string,
  now: Date,
  announce: Announce,
): Store {
  const firstStart = databasePath === ":memory:" || !existsSync(databasePath);
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
      { databasePath },
    );
  };
  try {
    const store = openStore(databasePath, now, onSeeding);
    // The operations guide promises "seconds, not minutes": say how long it took, every time it happens.
    if (seeded)
      announce("database created and seeded", {
        databasePath,
        durationMs: Math.round(performance.now() - started),
      });
    return store;
  } catch (error) {
    console.error(databaseOpenMessage(databasePath, error));
    process.exit(1);
  }
}
