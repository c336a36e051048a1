import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startPostgres,
  type PostgresServer,
} from "./testing/postgres-server.ts";
import {
  inPgTransaction,
  migratePg,
  openPgPool,
  pgStepsRun,
  pingPg,
} from "./postgres.ts";

let server: PostgresServer;
beforeAll(async () => {
  // A setting of the test's own, to see startPostgres pass its settings to the server.
  server = await startPostgres({ settings: { work_mem: "7MB" } });
}, 60_000);
afterAll(() => server.close());

const STEPS = [
  "CREATE TABLE things (id integer PRIMARY KEY)",
  // Slow on purpose, so replicas that start together overlap inside the migration.
  "SELECT pg_sleep(0.3); INSERT INTO things VALUES (1)",
];

describe("the test server", () => {
  it("runs with the settings it was given", async () => {
    const { rows } = await server.query("SHOW work_mem");
    expect(rows).toEqual([{ work_mem: "7MB" }]);
  });
});

describe("migratePg", () => {
  it("runs each step once when three replicas start together", async () => {
    const url = await server.createDatabase("three_replicas");
    const pools = [1, 2, 3].map(() =>
      openPgPool({ url, applicationName: "test" }),
    );
    try {
      const ran = await Promise.all(
        pools.map((pool) => migratePg(pool, { name: "demo", steps: STEPS })),
      );
      expect(ran.toSorted()).toEqual([0, 0, 2]);
      const { rows } = await pools[0]!.query(
        "SELECT count(*) AS n FROM things",
      );
      expect(rows[0].n).toBe(1);
      // A later release adds a step: only that one runs.
      expect(
        await migratePg(pools[1]!, {
          name: "demo",
          steps: [...STEPS, "INSERT INTO things VALUES (2)"],
        }),
      ).toBe(1);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });

  it("keeps nothing of a step that fails, and says which", async () => {
    const url = await server.createDatabase("failing_step");
    const pool = openPgPool({ url, applicationName: "test" });
    try {
      await expect(
        migratePg(pool, {
          name: "demo",
          steps: [STEPS[0]!, "INSERT INTO nowhere VALUES (1)"],
        }),
      ).rejects.toThrow(/nowhere/);
      const { rows } = await pool.query(
        "SELECT to_regclass('things') AS things",
      );
      expect(rows[0].things).toBeNull();
    } finally {
      await pool.end();
    }
  });

  it("says how many steps ran, and nothing where migratePg never ran, changing nothing", async () => {
    const url = await server.createDatabase("steps_run");
    const pool = openPgPool({ url, applicationName: "test" });
    try {
      expect(await pgStepsRun(pool, "demo")).toBeUndefined();
      const { rows } = await pool.query(
        "SELECT to_regclass('demo_migrations') AS made",
      );
      expect(rows[0].made).toBeNull();
      await migratePg(pool, { name: "demo", steps: STEPS });
      expect(await pgStepsRun(pool, "demo")).toBe(2);
      expect(await pgStepsRun(pool, "other")).toBeUndefined();
    } finally {
      await pool.end();
    }
  });

  it("pings while PostgreSQL is up, fails while it is down, and recovers without a new pool", async () => {
    const pool = openPgPool({ url: server.url(), applicationName: "test" });
    try {
      await pingPg(pool);
      await server.stop();
      await expect(pingPg(pool)).rejects.toThrow();
      await server.start();
      await pingPg(pool);
    } finally {
      await pool.end();
    }
  }, 60_000);
});

describe("a connection lost while checked out", () => {
  // pg emits 'error' on a client whose connection ends, and the pool hears it only while the
  // client is idle: unheard, it ended a proxy replica in the PostgreSQL restart drill.
  it.each([
    ["between two statements", undefined],
    ["during a statement", "SELECT pg_sleep(5)"],
  ])(
    "%s fails that transaction only: the process goes on and the pool serves the next query",
    async (_when, during) => {
      const pool = openPgPool({ url: server.url(), applicationName: "test" });
      try {
        const failed = inPgTransaction(pool, async (client) => {
          const { rows } = await client.query<{ pid: number }>(
            "SELECT pg_backend_pid() AS pid",
          );
          const running = during
            ? client.query(during).then(
                () => "answered",
                () => "failed",
              )
            : undefined;
          // Ended by another connection, as PostgreSQL's own stop ends every backend.
          await server.query("SELECT pg_terminate_backend($1)", undefined, [
            rows[0]!.pid,
          ]);
          await new Promise((resolve) => setTimeout(resolve, 200));
          if (running) expect(await running).toBe("failed");
          await client.query("SELECT 2");
        });
        await expect(failed).rejects.toThrow();
        const { rows } = await pool.query<{ one: number }>("SELECT 1 AS one");
        expect(rows).toEqual([{ one: 1 }]);
      } finally {
        await pool.end();
      }
    },
    30_000,
  );
});
