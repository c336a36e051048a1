// A batch of fetched facts whose lock another transaction holds: it waits no longer than its
// lock_timeout, then gives up with StoreBusyError, having stored nothing.
import { sharedPostgres } from "@vics/server-kit/testing/postgres-server";
import { describe, expect, it } from "vitest";
import { fetched } from "../../testing/fetched.ts";
import { migratedPool } from "../../testing/postgres-harness.ts";
import { StoreBusyError } from "../fetched-facts.ts";
import { FETCHED_LOCK, postgresFetchedStore } from "./fetched-writer.ts";

const server = sharedPostgres();

const AT = "2026-03-11T08:00:00.000Z";
const added = fetched(
  {
    registration: "AB12CDE",
    vehicle: { make: "Ford", year: 2019, firstRegistered: "2019-03-01" },
    tax: { sorn: false, dueDate: "2027-01-31" },
  },
  AT,
);

describe("facts fetched into PostgreSQL while another transaction holds their lock", () => {
  it("are refused with StoreBusyError after the lock timeout, nothing written; stored once the lock is let go", async () => {
    const { pool } = await migratedPool(server(), "fetched_busy", 3);
    try {
      const store = postgresFetchedStore(pool, { lockTimeoutMs: 100 });
      const holder = await pool.connect();
      try {
        await holder.query("BEGIN");
        await holder.query("SELECT pg_advisory_xact_lock(hashtext($1))", [
          FETCHED_LOCK,
        ]);
        await expect(store.recordFetched([added])).rejects.toBeInstanceOf(
          StoreBusyError,
        );
        await holder.query("COMMIT");
      } finally {
        holder.release();
      }
      const count = async () =>
        (await pool.query("SELECT count(*)::int AS n FROM vehicles")).rows[0].n;
      expect(await count()).toBe(0);
      expect(await store.freshness(["AB12CDE"])).toEqual(new Map());
      expect(await store.recordFetched([added])).toMatchObject({ added: 1 });
      expect(await count()).toBe(1);
    } finally {
      await pool.end();
    }
  });
});
