import { utcDate } from "../domain/dates.ts";
import { DEFAULT_FLEET_SEED, DEFAULT_FLEET_SIZE } from "../seed/fleet.ts";
import { openSqliteStore } from "./sqlite/sqlite-store.ts";
import type { Store } from "./store.ts";

/** The store the service and the keys CLI share: creates and seeds the database if needed. */
export function openStore(databasePath: string, now: Date): Store {
  return openSqliteStore({
    path: databasePath,
    seed: {
      fleetSize: DEFAULT_FLEET_SIZE,
      seed: DEFAULT_FLEET_SEED,
      today: utcDate(now),
    },
  });
}
