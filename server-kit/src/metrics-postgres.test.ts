// What the metrics see of PostgreSQL (metrics.ts's dependencyMetrics): a real server's pool.
import { createServer, type AddressInfo } from "node:net";
import { once } from "node:events";
import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { dependencyMetrics } from "./metrics.ts";
import { inPgTransaction, openPgPool } from "./postgres.ts";
import { sharedPostgres } from "./testing/postgres-server.ts";

const server = sharedPostgres();

async function value(registry: Registry, line: RegExp): Promise<number> {
  const found = line.exec(await registry.metrics());
  if (!found) throw new Error(`no ${String(line)} in the metrics`);
  return Number(found[1]);
}

const errors = (registry: Registry) =>
  value(registry, /^vics_postgres_errors_total (\S+)$/m);
const connections = (registry: Registry, state: string) =>
  value(
    registry,
    new RegExp(`^vics_db_pool_connections\\{state="${state}"\\} (\\S+)$`, "m"),
  );

describe("dependencyMetrics on PostgreSQL", () => {
  it("reads a watched pool's connections at scrape time, and counts its failed statements and lost connections", async () => {
    const registry = new Registry();
    const metrics = dependencyMetrics(registry);
    const pool = openPgPool({
      url: server().url(),
      applicationName: "vics-metrics-test",
      max: 2,
    });
    // Until a pool is watched (never, on SQLite), no series.
    expect(await registry.metrics()).not.toMatch(
      /^vics_db_pool_connections\{/m,
    );
    try {
      // Refused before the pool is watched: not counted (a store's set-up refuses on purpose).
      await expect(pool.query("SELECT * FROM no_such_table")).rejects.toThrow();
      metrics.watchPgPool(pool);
      // pool.query drops the connection of a failed statement: one is opened again.
      await pool.query("SELECT 1");
      expect(await errors(registry)).toBe(0);
      expect(await connections(registry, "total")).toBe(1);
      expect(await connections(registry, "idle")).toBe(1);

      const held = await pool.connect();
      expect(await connections(registry, "idle")).toBe(0);
      const waiting = [pool.connect(), pool.connect()];
      expect(await connections(registry, "total")).toBe(2);
      // One of the two is given the second connection as it opens; the other waits.
      expect(await connections(registry, "waiting")).toBeGreaterThan(0);
      held.release();
      for (const client of await Promise.all(waiting)) client.release();
      expect(await connections(registry, "waiting")).toBe(0);

      await pool.query("SELECT 1");
      expect(await errors(registry)).toBe(0);
      // A failed statement by pool.query (a callback inside pg), on a held client (a promise),
      // and in a transaction.
      await expect(pool.query("SELECT 1/0")).rejects.toThrow();
      const client = await pool.connect();
      await expect(
        client.query("SELECT * FROM no_such_table"),
      ).rejects.toThrow();
      client.release();
      await expect(
        inPgTransaction(pool, (tx) => tx.query("SELECT 1/0")),
      ).rejects.toThrow();
      expect(await errors(registry)).toBe(3);
      // A constraint the app relies on (a duplicate name, answered 409) is not PostgreSQL's fault.
      await pool.query(
        "CREATE TABLE IF NOT EXISTS fleet_names (name text PRIMARY KEY)",
      );
      await expect(
        pool.query("INSERT INTO fleet_names VALUES ('Vans'), ('Vans')"),
      ).rejects.toMatchObject({ code: "23505" });
      expect(await errors(registry)).toBe(3);
      // pool.query dropped that connection: one idle again, for PostgreSQL to end below.
      await pool.query("SELECT 1");

      // An idle connection that PostgreSQL ends: the pool's error event.
      const lost = once(pool, "error");
      await server().query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'vics-metrics-test'",
      );
      await lost;
      expect(await errors(registry)).toBeGreaterThanOrEqual(4);
    } finally {
      await pool.end();
    }
    // An ended pool is no longer read.
    expect(await connections(registry, "total")).toBe(0);
  }, 60_000);

  it("counts a connection that cannot be opened", async () => {
    const closed = createServer().listen(0, "127.0.0.1");
    await once(closed, "listening");
    const { port } = closed.address() as AddressInfo;
    closed.close();
    const registry = new Registry();
    const metrics = dependencyMetrics(registry);
    const pool = openPgPool({
      url: `postgres://nobody@127.0.0.1:${port}/none`,
      applicationName: "vics-metrics-test",
    });
    metrics.watchPgPool(pool);
    try {
      await expect(pool.query("SELECT 1")).rejects.toThrow();
      await expect(pool.connect()).rejects.toThrow();
      expect(await errors(registry)).toBe(2);
    } finally {
      await pool.end();
    }
  });

  it("counts Redis errors told to it", async () => {
    const registry = new Registry();
    const metrics = dependencyMetrics(registry);
    expect(await value(registry, /^vics_redis_errors_total (\S+)$/m)).toBe(0);
    metrics.redisError();
    expect(await value(registry, /^vics_redis_errors_total (\S+)$/m)).toBe(1);
  });
});
