// For the floors' tests: a small database seeded by the service's own code (200 vehicles, the
// same schema, meta and reference vehicles as the bench's million), keys in it, and the real
// service on it.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  HEALTH_PATH,
  SANDBOX_REGISTRATIONS,
  ukDate,
  type Plan,
} from "@vics/shared";
import { issueApiKey } from "../../service/src/keys/api-key.ts";
import { DEFAULT_FLEET_SEED } from "../../service/src/seed/fleet.ts";
import { openDatabase } from "../../service/src/store/sqlite/database.ts";
import { ensureSeeded } from "../../service/src/store/sqlite/seed-database.ts";
import { openSqliteStore } from "../../service/src/store/sqlite/sqlite-store.ts";
import { startChild, type Child } from "../../scripts/load/children.ts";
import { ROOT } from "../servers.ts";

export interface SmallDatabase {
  dir: string;
  databasePath: string;
  /** Plates held, none of them a sandbox plate. */
  registrations: string[];
  /** A new key on `plan` (default internal). */
  key(plan?: Plan): Promise<string>;
}

export function smallDatabase(): SmallDatabase {
  const dir = mkdtempSync(join(tmpdir(), "vics-floors-"));
  const databasePath = join(dir, "vics.sqlite");
  const db = openDatabase(databasePath);
  let registrations: string[];
  try {
    ensureSeeded(db, {
      fleetSize: 200,
      seed: DEFAULT_FLEET_SEED,
      today: ukDate(new Date()),
    });
    registrations = db
      .prepare("SELECT registration FROM vehicles ORDER BY registration")
      .all()
      .map((row) => String(row.registration))
      .filter((plate) => !Object.hasOwn(SANDBOX_REGISTRATIONS, plate));
  } finally {
    db.close();
  }
  let made = 0;
  return {
    dir,
    databasePath,
    registrations,
    // The keys command's own code (issueApiKey), in this process: the command itself takes
    // most of a second to start, and these tests are about the floors, not the command.
    async key(plan = "internal") {
      const store = openSqliteStore({ path: databasePath });
      try {
        const name = `floors-${plan}-${++made}`;
        return (await issueApiKey(store, plan, name, new Date())).key;
      } finally {
        await store.close();
      }
    },
  };
}

/**
 * The real service (service/src/index.ts) on `databasePath`, at `port`: known beforehand, so
 * what forwards to it can start beside it.
 */
export const startService = (
  databasePath: string,
  port: number,
): Promise<Child> =>
  startChild({
    label: "service",
    command: process.execPath,
    args: [join(ROOT, "service/src/index.ts")],
    cwd: ROOT,
    port,
    readyPath: HEALTH_PATH,
    env: {
      HOST: "127.0.0.1",
      PORT: String(port),
      DATABASE_PATH: databasePath,
    },
  });
