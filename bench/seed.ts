// The bench's 1,000,000-vehicle database, seeded by the service's own code with only the fleet
// size changed, so the service started on it finds it seeded (meta "fleet" is set) and behaves
// as on any seeded database: sandbox on, reference vehicles present, same schema and indexes.
import { join } from "node:path";
import { ukDate } from "@vics/shared";
import { DEFAULT_FLEET_SEED } from "../service/src/seed/fleet.ts";
import { openDatabase } from "../service/src/store/sqlite/database.ts";
import { ensureSeeded } from "../service/src/store/sqlite/seed-database.ts";

export const BENCH_FLEET_SIZE = 1_000_000;

/**
 * Seeds `dataDir`/vics.sqlite (the path startStack uses) with `fleetSize` vehicles; returns the
 * seconds it took.
 */
export function seedDatabase(
  dataDir: string,
  fleetSize = BENCH_FLEET_SIZE,
): number {
  const started = performance.now();
  const db = openDatabase(join(dataDir, "vics.sqlite"));
  try {
    const seeded = ensureSeeded(db, {
      fleetSize,
      seed: DEFAULT_FLEET_SEED,
      today: ukDate(new Date()),
    });
    if (!seeded) throw new Error(`${dataDir} already held a seeded database`);
  } finally {
    db.close();
  }
  return (performance.now() - started) / 1000;
}
