import { sharedPostgres } from "@vics/server-kit/testing/postgres-server";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { PgPool } from "@vics/server-kit/postgres";
import type { ImportReport } from "./run-import.ts";
import { StoreBusyError } from "../store/fetched-facts.ts";
import { fetched } from "../testing/fetched.ts";
import { postgresFetchedStore } from "../store/postgres/fetched-writer.ts";
import { postgresImportStore } from "../store/postgres/import-writer.ts";
import { postgresStore } from "../store/postgres/postgres-store.ts";
import {
  migratedPool,
  openPostgresHarness,
} from "../testing/postgres-harness.ts";
import { importContract } from "./import.contract.ts";
import {
  type ImportHarness,
  importer,
  VEHICLES,
  vehicle,
} from "../testing/import-files.ts";
import { registerNewerContract } from "./register-newer.contract.ts";
import { pointInTimeContract } from "../routes/point-in-time.contract.ts";

const server = sharedPostgres();

let databases = 0;

describe("importing into PostgreSQL", () => {
  importContract(() => openPostgresHarness(server()));
});

describe("point-in-time answers from PostgreSQL", () => {
  pointInTimeContract(() => openPostgresHarness(server()));
});

describe("importing into PostgreSQL over a live register's facts", () => {
  registerNewerContract(() => openPostgresHarness(server()));
});

describe("a fact fetched while a PostgreSQL tax import is between its plan and its write", () => {
  let pool: PgPool;
  const harness = {} as ImportHarness;
  beforeEach(async () => {
    ({ pool } = await migratedPool(
      server(),
      `fetch_between_${++databases}`,
      4,
    ));
    Object.assign(harness, {
      imports: postgresImportStore(pool),
      store: postgresStore(pool),
    });
  });
  afterEach(() => pool.end());
  const files = importer(() => harness, "2026-11-24T06:00:00Z");
  const FETCHED = "2026-11-25T08:00:00.000Z";

  it("is refused busy while the import holds the fetched lock, so the file's older fact never overwrites it", async () => {
    await files.run("vehicles", [VEHICLES, vehicle("AB12CDE")]);
    // The import plans, then waits to record itself: the imports table is held here (SHARE
    // lets a fetch's foreign key check through, not the import's INSERT).
    const holder = await pool.connect();
    let imported: Promise<ImportReport> | undefined;
    try {
      await holder.query("BEGIN");
      await holder.query("LOCK TABLE imports IN SHARE MODE");
      files.at("2026-11-26T07:00:00Z");
      imported = files.run(
        "tax",
        ["registration,status,due_date", "AB12CDE,taxed,2027-03-31"],
        { dataAsOf: new Date("2026-11-25T06:00:00Z") },
      );
      const waiting = async () =>
        (
          await pool.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
             WHERE c.relname = 'imports' AND NOT l.granted`,
          )
        ).rows[0]?.n;
      while ((await waiting()) === 0)
        await new Promise((resolve) => setTimeout(resolve, 10));
      const fetches = postgresFetchedStore(pool, { lockTimeoutMs: 100 });
      const fetch = await fetches
        .recordFetched([
          fetched(
            { registration: "AB12CDE", tax: { sorn: true, dueDate: null } },
            FETCHED,
          ),
        ])
        .then(
          () => "stored",
          (error: unknown) => {
            if (error instanceof StoreBusyError) return "busy";
            throw error;
          },
        );
      await holder.query("COMMIT");
      // The import took FETCHED_LOCK before waiting on the imports table, so the fetch cannot
      // be stored first: it is refused busy and the import's fact stands.
      expect(fetch).toBe("busy");
      expect(await imported).toMatchObject({ outcome: "applied" });
      const found = await harness.store.findVehicle("AB12CDE");
      const mark = (await harness.store.freshness(["AB12CDE"])).get("AB12CDE");
      expect(found?.tax).toEqual({ sorn: false, dueDate: "2027-03-31" });
      expect(mark?.tax).toBeUndefined();
    } finally {
      await holder.query("ROLLBACK").catch(() => {});
      holder.release();
      await imported?.catch(() => {});
    }
  });
});
