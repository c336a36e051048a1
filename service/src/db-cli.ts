// `scripts/db migrate | seed [--vehicles <n>]`: the database steps a start does, on demand,
// for DATABASE_URL's PostgreSQL or the SQLite file at DATABASE_PATH (as the service reads them).
import { fail, readCliArgs } from "@vics/server-kit/cli";
import { loadEnv } from "./env.ts";
import { DEFAULT_FLEET_SIZE } from "./seed/fleet.ts";
import {
  databaseOpenMessage,
  databasePlace,
  databaseSettings,
  fleetOptions,
  migrateDatabase,
  seedDatabase,
} from "./store/open-store.ts";

const USAGE = `Usage:
  scripts/db migrate                  bring the schema up to date
  scripts/db seed [--vehicles <n>]    migrate, then seed the synthetic fleet (n vehicles and the
                                      reference ones; default ${DEFAULT_FLEET_SIZE}) into a database that holds no vehicles
  scripts/db status                   which schema steps this database and the proxy's store have
                                      run, and which are pending (scripts/db only: scripts/db-status.ts)
The database is DATABASE_URL's PostgreSQL when it is set, else the SQLite file at DATABASE_PATH.`;

const { values, positionals } = readCliArgs(USAGE, {
  vehicles: { type: "string" },
});
const [command, ...rest] = positionals;
// scripts/db answers status before it comes here: it reads the proxy's store too.
if (command === "status")
  fail(
    "status is answered by scripts/db, which reads the proxy's store too: run `scripts/db status`.",
    2,
  );
if ((command !== "migrate" && command !== "seed") || rest.length > 0)
  fail(
    `${command ? `Unknown command "${positionals.join(" ")}".` : "Missing command."}\n${USAGE}`,
    2,
  );
if (command === "migrate" && values.vehicles !== undefined)
  fail(`--vehicles is for seed only.\n${USAGE}`, 2);
const vehicles =
  values.vehicles === undefined ? DEFAULT_FLEET_SIZE : Number(values.vehicles);
if (!/^\d+$/.test(values.vehicles ?? "0") || !Number.isSafeInteger(vehicles))
  fail(`--vehicles must be a whole number, not "${values.vehicles}".`, 2);

const settings = databaseSettings(loadEnv(), "vics-db-cli");
const where = databasePlace(settings);

try {
  if (command === "migrate") {
    const steps = await migrateDatabase(settings);
    console.log(
      steps === 0
        ? `The database at ${where} is up to date.`
        : `Migrated the database at ${where}: ${steps} step${steps === 1 ? "" : "s"} run.`,
    );
  } else {
    const started = performance.now();
    const outcome = await seedDatabase(
      settings,
      fleetOptions(new Date(), vehicles),
      () =>
        console.error(
          `Seeding ${vehicles} vehicles and the reference ones into ${where}...`,
        ),
    );
    // Seeding twice is no error; refusing to mix the fleet into real vehicles is.
    if (outcome === "seeded")
      console.log(
        `Seeded the synthetic fleet into ${where} in ${((performance.now() - started) / 1000).toFixed(1)} s.`,
      );
    else if (outcome === "already-seeded")
      console.log(
        `The database at ${where} already holds the synthetic fleet: nothing to do.`,
      );
    else
      fail(
        `Not seeded: the database at ${where} holds vehicles of its own, and the synthetic fleet goes only into an empty one.`,
        1,
      );
  }
} catch (error) {
  fail(databaseOpenMessage(settings, error), 1);
}
