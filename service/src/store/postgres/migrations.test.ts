// The PostgreSQL migration steps that change data an older database already holds, each run
// on a database built as the step before it left one (the step-3 case is in
// postgres-store.test.ts, beside the store it then serves).
import { sharedPostgres } from "@vics/server-kit/testing/postgres-server";
import { migratePg } from "@vics/server-kit/postgres";
import { describe, expect, it } from "vitest";
import { CONTRACT_FLEET } from "../store.contract.ts";
import { MIGRATIONS, MIGRATIONS_NAME } from "./migrations.ts";
import { openStorePool } from "./postgres-store.ts";
import { seedPostgresFleet } from "./seed-database.ts";

const server = sharedPostgres();

describe("a database whose fetched marks name vehicles no longer held (step 4)", () => {
  it("keeps the marks of held vehicles, drops the others, and indexes the marks by kind", async () => {
    const pool = openStorePool({
      url: await server().createDatabase("marks_of_gone_vehicles"),
      poolSize: 2,
    });
    try {
      await migratePg(pool, {
        name: MIGRATIONS_NAME,
        steps: MIGRATIONS.slice(0, 3),
      });
      await seedPostgresFleet(pool, { ...CONTRACT_FLEET, fleetSize: 20 });
      // Step 3's table had no tie to vehicles: a mark could outlive its vehicle's removal.
      await pool.query(
        `INSERT INTO fetched_facts (registration, kind, source, fetched_at)
         VALUES ('AB12CDE', 'tax', 'dvla-ves', '2026-03-10T00:00:00Z'),
           ('GONE1', 'tax', 'dvla-ves', '2026-03-10T00:00:00Z'),
           ('GONE2', 'mot', 'dvsa-mot-history', '2026-03-10T00:00:00Z')`,
      );
      expect(
        await migratePg(pool, { name: MIGRATIONS_NAME, steps: MIGRATIONS }),
      ).toBe(1);
      const { rows: marks } = await pool.query(
        "SELECT registration, kind FROM fetched_facts ORDER BY registration",
      );
      expect(marks).toEqual([{ registration: "AB12CDE", kind: "tax" }]);
      const { rows: indexes } = await pool.query(
        "SELECT indexname FROM pg_indexes WHERE tablename = 'fetched_facts'",
      );
      expect(indexes).toContainEqual({ indexname: "fetched_facts_by_kind" });
    } finally {
      await pool.end();
    }
  });
});
