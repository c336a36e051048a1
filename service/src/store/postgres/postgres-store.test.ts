import { REFERENCE_REGISTRATIONS } from "@vics/shared";
import { DependencyUnavailableError } from "@vics/server-kit/dependency-unavailable";
import { sharedPostgres } from "@vics/server-kit/testing/postgres-server";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { seedVehicles, type SeedOptions } from "../../seed/seed-data.ts";
import type { VehicleFacts } from "../../domain/vehicle-facts.ts";
import { openStore } from "../open-store.ts";
import { openSqliteStore } from "../sqlite/sqlite-store.ts";
import { CONTRACT_FLEET, storeContract } from "../store.contract.ts";
import { fetchedFactsContract } from "../fetched-facts.contract.ts";
import { fetched } from "../../testing/fetched.ts";
import { vehicleLines } from "./copy-lines.ts";
import type { Store } from "../store.ts";
import { migratePg } from "@vics/server-kit/postgres";
import { MIGRATIONS, MIGRATIONS_NAME, migratePostgres } from "./migrations.ts";
import { openStorePool, postgresStore } from "./postgres-store.ts";
import { seedPostgresFleet } from "./seed-database.ts";
import { VEHICLES } from "./vehicle-queries.ts";

const server = sharedPostgres();

let databases = 0;
const freshDatabase = () => server().createDatabase(`store_${++databases}`);

/** A new database, migrated, and seeded with `fleet` when given. */
async function openMigrated(
  fleet?: SeedOptions,
  vehicles?: () => Iterable<VehicleFacts>,
): Promise<Store> {
  const pool = openStorePool({ url: await freshDatabase(), poolSize: 4 });
  await migratePostgres(pool);
  if (fleet) await seedPostgresFleet(pool, fleet, { vehicles });
  return postgresStore(pool);
}

describe("the PostgreSQL store", () => {
  storeContract((fleet) => openMigrated(fleet));
});

describe("facts fetched into the PostgreSQL store", () => {
  fetchedFactsContract((fleet) => openMigrated(fleet));
});

describe("a database migrated before facts were fetched (step 3)", () => {
  it("keeps its history rows, their ids and imports, then keeps a fetch's version naming its source", async () => {
    const pool = openStorePool({ url: await freshDatabase(), poolSize: 2 });
    const store = postgresStore(pool);
    try {
      const steps = MIGRATIONS.slice(0, 2);
      await migratePg(pool, { name: MIGRATIONS_NAME, steps });
      await seedPostgresFleet(pool, { ...CONTRACT_FLEET, fleetSize: 20 });
      // AB12CDE as an import left it before the seeded version (current since 09:30).
      const { rows: imported } = await pool.query<{ id: string }>(
        `INSERT INTO imports (kind, mode, file_name, sha256, bytes, run_by, started_at,
           finished_at, outcome)
         VALUES ('tax', 'upsert', 'tax.csv', 'abc', 10, 'ops', '2026-03-01T00:00:00Z',
           '2026-03-01T00:00:01Z', 'applied') RETURNING id`,
      );
      const importId = imported[0]!.id;
      await pool.query(
        `INSERT INTO vehicle_history (registration, make, model, year, color,
           first_registered, tax_due, sorn, updated_at, policies, mot_tests, fines,
           superseded_at, import_id)
         VALUES ('AB12CDE', 'Ford', 'Focus', 2012, 'Blue', '2012-03-14', NULL, true,
           '2026-03-01T00:00:00Z', '{}', '{}', '{}', '2026-03-09T09:30:00Z', $1)`,
        [importId],
      );
      const history = async () =>
        (await pool.query("SELECT * FROM vehicle_history ORDER BY id")).rows;
      const before = await history();
      expect(
        await migratePg(pool, {
          name: MIGRATIONS_NAME,
          steps: MIGRATIONS.slice(0, 3),
        }),
      ).toBe(1);
      expect(await history()).toEqual(
        before.map((row) => ({ ...row, source: null })),
      );
      // A version must say what ended it: an import, or a source.
      await expect(
        pool.query(
          `INSERT INTO vehicle_history (registration, make, model, year, color,
             first_registered, sorn, updated_at, policies, mot_tests, fines, superseded_at)
           SELECT registration, make, model, year, color, first_registered, sorn,
             updated_at, policies, mot_tests, fines, superseded_at FROM vehicle_history`,
        ),
      ).rejects.toThrow(/vehicle_history_import_or_source/);

      const then = "2026-03-05T00:00:00.000Z";
      expect((await store.findVehicle("AB12CDE", then))?.tax).toEqual({
        sorn: true,
        dueDate: null,
      });
      const fetchedAt = "2026-03-11T08:00:00.000Z";
      await store.recordFetched([
        fetched(
          {
            registration: "AB12CDE",
            tax: { sorn: false, dueDate: "2027-03-31" },
          },
          fetchedAt,
        ),
      ]);
      expect((await store.findVehicle("AB12CDE", then))?.tax.sorn).toBe(true);
      const kept = await history();
      expect(kept.map((row) => [row.import_id, row.source])).toEqual([
        [importId, null],
        [null, "dvla-ves"],
      ]);
      expect(kept[0].id).toBe(before[0].id);
    } finally {
      await store.close();
    }
  });
});

describe("the PostgreSQL store beside the SQLite one", () => {
  it("answers every vehicle of the same seeded fleet with identical facts", async () => {
    const postgres = await openMigrated(CONTRACT_FLEET);
    const sqlite = openSqliteStore({ path: ":memory:", seed: CONTRACT_FLEET });
    try {
      const registrations = [...seedVehicles(CONTRACT_FLEET)].map(
        (vehicle) => vehicle.registration,
      );
      const answer = await postgres.findVehicles(registrations);
      expect(answer).toEqual(await sqlite.findVehicles(registrations));
      for (const registration of [
        "LP08SED",
        "FN19OUT",
        ...registrations.slice(-5),
      ])
        expect(await postgres.findVehicle(registration)).toEqual(
          await sqlite.findVehicle(registration),
        );
    } finally {
      await Promise.all([postgres.close(), sqlite.close()]);
    }
  });

  it("keeps any text whole through COPY's and the composite arrays' quoting", async () => {
    const [reference] = [...seedVehicles({ ...CONTRACT_FLEET, fleetSize: 0 })];
    const awkward = [
      'a "quoted" word',
      "back\\slash \\N",
      "tab\there, new\nline\r",
      "(parens), {braces}",
      "NULL",
      "",
      " spaced ",
      "Škoda ✓",
    ];
    const vehicle: VehicleFacts = {
      ...reference!,
      registration: "AW1CKD",
      vehicle: { ...reference!.vehicle, model: awkward.join("|") },
      policies: awkward.map((text, index) => ({
        number: text,
        insurer: text,
        type: text,
        validFrom: `2025-01-0${index + 1}`,
        validTo: "2026-01-01",
      })),
    };
    const store = await openMigrated(CONTRACT_FLEET, () => [vehicle]);
    try {
      const found = await store.findVehicle("AW1CKD");
      expect(found?.vehicle.model).toBe(awkward.join("|"));
      expect(found?.policies.map((policy) => policy.number)).toEqual(awkward);
      expect(found?.policies.map((policy) => policy.type)).toEqual(awkward);
    } finally {
      await store.close();
    }
  });
});

describe("three replicas starting together on an empty database", () => {
  it(
    "migrate it once and seed it once; every one then finds the fleet",
    { timeout: 120_000 },
    async () => {
      const database = "three_replicas";
      const url = await server().createDatabase(database);
      const fleetSize = 20_000;
      const seedings: number[] = [];
      const migrations: number[] = [];
      const stores = await Promise.all(
        [1, 2, 3].map((replica) =>
          openStore(
            { url, path: "", seedSyntheticFleet: true, fleetSize },
            new Date("2026-03-10T12:00:00Z"),
            {
              onSeeding: () => seedings.push(replica),
              onMigrated: (steps) => migrations.push(steps),
            },
          ),
        ),
      );
      try {
        expect(seedings).toHaveLength(1);
        expect(migrations).toEqual([MIGRATIONS.length]);
        for (const store of stores)
          expect(await store.holdsSyntheticFleet()).toBe(true);
        const count = await server().query(
          "SELECT count(*)::int AS n FROM vehicles",
          database,
        );
        expect(count.rows[0].n).toBe(
          fleetSize + REFERENCE_REGISTRATIONS.length,
        );
        const steps = await server().query(
          "SELECT step, count(*)::int AS n FROM vics_service_migrations GROUP BY step ORDER BY step",
          database,
        );
        expect(steps.rows).toEqual(
          MIGRATIONS.map((_, index) => ({ step: index + 1, n: 1 })),
        );

        // The bulk lookup can probe the registration index (a collation that differs from the
        // index's would leave it only a scan of the table). On 20,000 rows a scan may well be
        // cheaper, so the scan is priced out here, not forbidden.
        const registrations = [
          ...seedVehicles({ ...CONTRACT_FLEET, fleetSize }),
        ].map((vehicle) => vehicle.registration);
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          await client.query("SET enable_seqscan = off");
          const plan = await client.query({
            text: `EXPLAIN ${VEHICLES.text}`,
            values: [registrations.slice(-1000)],
          });
          const lines = plan.rows.map((row) => String(row["QUERY PLAN"]));
          expect(lines.join("\n")).toContain("vehicles_by_registration");
          expect(lines.join("\n")).not.toContain("Seq Scan");
        } finally {
          await client.end();
        }
      } finally {
        await Promise.all(stores.map((store) => store.close()));
      }
    },
  );

  it("a start that is not asked to seed only migrates: the sandbox fleet is opt-in on PostgreSQL", async () => {
    const store = await openStore(
      { url: await freshDatabase(), path: "" },
      new Date(),
    );
    try {
      expect(await store.holdsSyntheticFleet()).toBe(false);
      expect(await store.findVehicle("AB12CDE")).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it("leaves a database holding vehicles of its own alone", async () => {
    const url = await freshDatabase();
    const pool = openStorePool({ url });
    try {
      await migratePostgres(pool);
      await pool.query(
        `INSERT INTO vehicles (registration, make, model, year, color, first_registered, updated_at)
         VALUES ('AB12CDE', 'Ford', 'Focus', 2012, 'Blue', '2012-03-14', now())`,
      );
      expect(await seedPostgresFleet(pool, CONTRACT_FLEET)).toBe(
        "own-vehicles",
      );
      const { rows } = await pool.query(
        "SELECT count(*)::int AS n FROM vehicles",
      );
      expect(rows[0].n).toBe(1);
    } finally {
      await pool.end();
    }
  });

  it("keeps nothing of a seeding that fails part-way, and seeds whole the next time", async () => {
    const url = await freshDatabase();
    const pool = openStorePool({ url });
    try {
      await migratePostgres(pool);
      // The cut comes after the whole fleet, so rows have gone to COPY in the chunks before
      // the last: more than one chunk, or nothing would have reached PostgreSQL to keep.
      expect(
        [...vehicleLines(seedVehicles(CONTRACT_FLEET))].length,
      ).toBeGreaterThan(1);
      function* failing() {
        yield* seedVehicles(CONTRACT_FLEET);
        throw new Error("power cut");
      }
      await expect(
        seedPostgresFleet(pool, CONTRACT_FLEET, { vehicles: failing }),
      ).rejects.toThrow("power cut");
      const store = postgresStore(pool);
      expect(await store.holdsSyntheticFleet()).toBe(false);
      const empty = await pool.query("SELECT count(*)::int AS n FROM vehicles");
      expect(empty.rows[0].n).toBe(0);
      expect(await seedPostgresFleet(pool, CONTRACT_FLEET)).toBe("seeded");
      expect(await seedPostgresFleet(pool, CONTRACT_FLEET)).toBe(
        "already-seeded",
      );
      expect(await store.holdsSyntheticFleet()).toBe(true);
      const indexes = await pool.query(
        "SELECT indexname FROM pg_indexes WHERE tablename = 'vehicles' ORDER BY indexname",
      );
      expect(indexes.rows.map((row) => row.indexname)).toEqual([
        "vehicles_by_registration",
        "vehicles_pkey",
      ]);
    } finally {
      await pool.end();
    }
  });
});

describe("a PostgreSQL that stops", () => {
  it.each([
    ["stopped", false],
    ["killed", true],
  ])(
    "%s: every call is a DependencyUnavailableError, and the same store answers once it is back",
    { timeout: 60_000 },
    async (_, crash) => {
      const store = await openMigrated(CONTRACT_FLEET);
      try {
        await store.createKey({
          name: "ops",
          plan: "trial",
          keyHash: "hash-ops",
          createdAt: "2026-03-10T10:00:00.000Z",
        });
        expect(await store.findVehicle("AB12CDE")).toBeDefined();
        // The test server commits asynchronously (fast, not durable): what a kill must not
        // lose is flushed first.
        await server().query("CHECKPOINT");
        await server().stop({ crash });
        const calls: [string, () => Promise<unknown>][] = [
          ["findVehicle", () => store.findVehicle("AB12CDE")],
          ["findVehicles", () => store.findVehicles(["AB12CDE", "FN19OUT"])],
          ["findKeyByHash", () => store.findKeyByHash("hash-ops")],
          ["listKeys", () => store.listKeys()],
          [
            "createKey",
            () =>
              store.createKey({
                name: "web",
                plan: "trial",
                keyHash: "hash-web",
                createdAt: "2026-03-10T10:00:00.000Z",
              }),
          ],
          ["revokeKey", () => store.revokeKey("ops", "2026-03-11T00:00:00Z")],
          ["holdsSyntheticFleet", () => store.holdsSyntheticFleet()],
          ["recordFetched", () => store.recordFetched([])],
          ["freshness", () => store.freshness(["AB12CDE"])],
          ["countStale", () => store.countStale("tax", "2026-03-11T00:00:00Z")],
          ["sourceStates", () => store.sourceStates()],
          ["ping", () => store.ping()],
        ];
        for (const [name, call] of calls) {
          const error = await call().then(
            () => undefined,
            (thrown: unknown) => thrown,
          );
          expect(error, name).toBeInstanceOf(DependencyUnavailableError);
          expect((error as DependencyUnavailableError).dependency).toBe(
            "database",
          );
        }
      } finally {
        await server().start();
      }
      try {
        await store.ping();
        expect((await store.findVehicle("AB12CDE"))?.registration).toBe(
          "AB12CDE",
        );
        expect((await store.findKeyByHash("hash-ops"))?.revokedAt).toBeNull();
      } finally {
        await store.close();
      }
    },
  );
});
