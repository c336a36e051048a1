// For the floors' tests: a small database seeded by the service's own code (200 vehicles, the
// same schema, meta and reference vehicles as the bench's million), and the real service on it.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  HEALTH_PATH,
  SANDBOX_REGISTRATIONS,
  ukDate,
  type Plan,
} from "@vics/shared";
import { DEFAULT_FLEET_SEED } from "../../service/src/seed/fleet.ts";
import { openDatabase } from "../../service/src/store/sqlite/database.ts";
import { ensureSeeded } from "../../service/src/store/sqlite/seed-database.ts";
import type { Child } from "../../scripts/load/children.ts";
import { createKey, startServer } from "../../scripts/load/stack.ts";

export interface SmallDatabase {
  dir: string;
  databasePath: string;
  /** Plates held, none of them a sandbox plate. */
  registrations: string[];
  key(plan?: Plan): string;
}

export function smallDatabase(): SmallDatabase {
  const dir = mkdtempSync(join(tmpdir(), "vics-floors-"));
  const databasePath = join(dir, "vics.sqlite");
  const db = openDatabase(databasePath);
  try {
    ensureSeeded(db, {
      fleetSize: 200,
      seed: DEFAULT_FLEET_SEED,
      today: ukDate(new Date()),
    });
    const registrations = db
      .prepare("SELECT registration FROM vehicles ORDER BY registration")
      .all()
      .map((row) => String(row.registration))
      .filter((plate) => !Object.hasOwn(SANDBOX_REGISTRATIONS, plate));
    let made = 0;
    return {
      dir,
      databasePath,
      registrations,
      key: (plan = "internal") =>
        createKey(databasePath, plan, `floors-${Date.now()}-${++made}`),
    };
  } finally {
    db.close();
  }
}

/** The real service (service/src/index.ts) on `databasePath`. */
export const startService = (databasePath: string): Promise<Child> =>
  startServer("service/src/index.ts", HEALTH_PATH, {
    DATABASE_PATH: databasePath,
  });
