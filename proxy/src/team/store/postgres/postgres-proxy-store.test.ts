import pg from "pg";
import { describe, expect, it } from "vitest";
import { DependencyUnavailableError } from "@vics/server-kit/dependency-unavailable";
import { sharedPostgres } from "@vics/server-kit/testing/postgres-server";
import { ownedDatabases } from "../../../testing/owned-database.ts";
import { openProxyStore } from "../open-proxy-store.ts";
import { auditEvent, proxyStoreContract } from "../proxy-store.contract.ts";
import { openPostgresProxyStore } from "./postgres-proxy-store.ts";
import { OLD_DELIVERY_WORDS } from "../old-delivery-words.ts";
import { migratePg, type PgPool } from "@vics/server-kit/postgres";
import {
  GROUP_NOTIFICATIONS,
  MIGRATIONS,
  MIGRATIONS_NAME,
  SCRUB_ENDPOINT_WORDS,
} from "./schema.ts";
import {
  alertsBeforeGrouping,
  expectAlertsGroupedBySweep,
} from "../watch-store.contract.ts";

const DAY_MS = 86_400_000;

const postgres = sharedPostgres();
/** A new empty database owned by vics_owner; the URLs to reach it as each role. */
const freshDatabase = ownedDatabases(postgres, "proxy");

const open = (url: string, migrationUrl?: string, auditRetentionDays = 30) =>
  openPostgresProxyStore({
    url,
    migrationUrl,
    auditRetentionDays,
    applicationName: "vics-proxy-test",
  });

/** Runs one statement as the role in `url`; resolves to its error, if any. */
async function refusal(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
    return undefined;
  } catch (error) {
    return error as { code?: string; message: string };
  } finally {
    await client.end();
  }
}

describe("the PostgreSQL proxy store, as the owner of its tables", () => {
  proxyStoreContract(async () => open((await freshDatabase()).owner));
});

describe("the PostgreSQL proxy store, as a lesser role the owner's migration grants", () => {
  proxyStoreContract(async () => {
    const { owner, app } = await freshDatabase();
    return open(app, owner);
  });
});

describe("the PostgreSQL audit log, through SQL that bypasses the store", () => {
  it("refuses the app role any update or delete: old events go only through prune_audit", async () => {
    const { owner, app } = await freshDatabase();
    const store = await open(app, owner);
    const now = Date.now();
    try {
      await store.appendAudit(
        auditEvent({ at: now - 100 * DAY_MS, requestId: "old" }),
      );
      await store.appendAudit(auditEvent({ at: now, requestId: "new" }));
      for (const sql of [
        "UPDATE audit_events SET outcome = '404'",
        "UPDATE audit_registrations SET registration = 'X'",
        "DELETE FROM audit_events WHERE request_id = 'old'",
        "DELETE FROM audit_registrations",
        "TRUNCATE audit_events CASCADE",
        "UPDATE proxy_settings SET value = '1'",
        "INSERT INTO proxy_settings VALUES ('x', '1')",
        "ALTER TABLE audit_events DISABLE TRIGGER ALL",
        "CREATE OR REPLACE FUNCTION prune_audit(cutoff bigint) RETURNS integer LANGUAGE sql AS 'SELECT 0'",
      ]) {
        expect(await refusal(app, sql), sql).toMatchObject({
          code: "42501",
          message: expect.stringMatching(/permission denied|must be owner/),
        });
      }
      // Asked to prune a year ahead, the database still keeps what is within its retention.
      expect(await store.pruneAudit(now + 365 * DAY_MS)).toBe(1);
      expect(
        (await store.searchAudit({ limit: 10 })).map((e) => e.requestId),
      ).toEqual(["new"]);
      expect(
        await store.searchAudit({ registration: "AB12CDE", limit: 10 }),
      ).toHaveLength(1);
      // The one column it may update, an aggregated event's count, only grows, and only there.
      await store.appendAudit(
        auditEvent({ at: now, requestId: "counted", aggregate: "k" }),
      );
      for (const sql of [
        "UPDATE audit_events SET attempts = attempts + 1 WHERE aggregate_key IS NULL",
        "UPDATE audit_events SET attempts = 0 WHERE aggregate_key = 'k'",
        "UPDATE audit_events SET outcome = 'x' WHERE aggregate_key = 'k'",
      ])
        expect(await refusal(app, sql), sql).toMatchObject({
          message: expect.stringMatching(/cannot be changed|permission denied/),
        });
    } finally {
      await store.close();
    }
  });

  it("refuses the owner too any update, truncate, or delete of an event within the retention period", async () => {
    const { owner } = await freshDatabase();
    const store = await open(owner);
    const now = Date.now();
    await store.appendAudit(
      auditEvent({ at: now - 100 * DAY_MS, requestId: "old" }),
    );
    await store.appendAudit(auditEvent({ at: now, requestId: "new" }));
    await store.close();
    for (const [sql, words] of [
      ["UPDATE audit_events SET outcome = '404'", /cannot be changed/],
      [
        "UPDATE audit_registrations SET registration = 'X'",
        /cannot be changed/,
      ],
      ["TRUNCATE audit_events, audit_registrations", /cannot be changed/],
      ["DELETE FROM audit_registrations", /retention period/],
      ["DELETE FROM audit_events", /retention period/],
      // Without its retention setting the rule counts a century: it fails closed.
      [
        "DELETE FROM proxy_settings; DELETE FROM audit_events WHERE request_id = 'old'",
        /retention period/,
      ],
    ] as const) {
      expect((await refusal(owner, sql))?.message, sql).toMatch(words);
    }
    const reopened = await open(owner);
    expect(
      (await reopened.searchAudit({ limit: 10 })).map((e) => e.requestId),
    ).toEqual(["new", "old"]);
    expect(await reopened.pruneAudit(now)).toBe(1);
    await reopened.close();
  });
});

describe("the delivery log written before issue 33", () => {
  it("keeps the status and VICS's own words of a failure, never what the endpoint said", async () => {
    const { owner } = await freshDatabase();
    await (await open(owner)).close();
    const client = new pg.Client({ connectionString: owner });
    await client.connect();
    try {
      for (const [index, { before }] of OLD_DELIVERY_WORDS.entries()) {
        const webhook = await client.query<{ id: string }>(
          `INSERT INTO webhooks (url, description, allow_private, secret, created_at, last_error)
           VALUES ('https://hooks.example.org/in', '', false, 'x', 0, $1) RETURNING id`,
          [before],
        );
        const delivery = await client.query<{ id: string }>(
          `INSERT INTO deliveries (alert_id, fleet_id, channel, target, timing, status, note, created_at)
           VALUES ($1, 'f', 'webhook', $2, 'now', 'failed', $3, 0) RETURNING id`,
          [index, webhook.rows[0]!.id, before],
        );
        await client.query(
          "INSERT INTO delivery_attempts (delivery_id, at, ok, detail) VALUES ($1, 0, false, $2)",
          [delivery.rows[0]!.id, before],
        );
      }
      // A step of its own, which every store made before runs once.
      expect(MIGRATIONS).toContain(SCRUB_ENDPOINT_WORDS);
      await client.query(SCRUB_ENDPOINT_WORDS);
      const words = async (sql: string) =>
        (await client.query<Record<string, string>>(sql)).rows.map(
          (row) => Object.values(row)[0],
        );
      const after = OLD_DELIVERY_WORDS.map((words) => words.after);
      expect(
        await words("SELECT last_error FROM webhooks ORDER BY id"),
      ).toEqual(after);
      expect(await words("SELECT note FROM deliveries ORDER BY id")).toEqual(
        after,
      );
      expect(
        await words("SELECT detail FROM delivery_attempts ORDER BY id"),
      ).toEqual(after);
    } finally {
      await client.end();
    }
  });
});

describe("a store made before notifications were grouped by sweep", () => {
  it("gives each old alert the sweep that ran when it opened, and keeps every one a notification (issue 34)", async () => {
    const { owner } = await freshDatabase();
    const step = MIGRATIONS.indexOf(GROUP_NOTIFICATIONS);
    expect(step).toBeGreaterThan(0);
    const pool = new pg.Pool({ connectionString: owner });
    try {
      await migratePg(pool, {
        name: MIGRATIONS_NAME,
        steps: MIGRATIONS.slice(0, step),
      });
      await pool.query(alertsBeforeGrouping("OVERRIDING SYSTEM VALUE"));
    } finally {
      await pool.end();
    }
    await expectAlertsGroupedBySweep(await open(owner));
  });
});

describe("opening the PostgreSQL store", () => {
  it("is what openProxyStore opens when DATABASE_URL is set, never the SQLite file", async () => {
    const { owner, app } = await freshDatabase();
    const store = await openProxyStore(
      {
        databasePath: "/nonexistent/proxy.sqlite",
        databaseUrl: app,
        migrationDatabaseUrl: owner,
        auditRetentionDays: 30,
      },
      "vics-proxy-test",
    );
    await store.appendAudit(auditEvent({ requestId: "in-postgres" }));
    await store.close();
    const { rows } = await postgres().query(
      "SELECT request_id FROM audit_events",
      new URL(owner).pathname.slice(1),
    );
    expect(rows).toEqual([{ request_id: "in-postgres" }]);
  });

  it("three replicas opening an empty database together all start, each with the app role's grants", async () => {
    const { owner, app } = await freshDatabase();
    const stores = await Promise.all([1, 2, 3].map(() => open(app, owner)));
    try {
      const { rows } = await postgres().query(
        "SELECT count(*) AS n FROM vics_proxy_migrations",
        new URL(owner).pathname.slice(1),
      );
      expect(Number(rows[0].n)).toBe(MIGRATIONS.length);
      // The re-checks' job schema, installed once by the owner, used by the app role.
      const jobs = await postgres().query(
        `SELECT pg_get_userbyid(nspowner) AS owner,
           has_schema_privilege('vics_app', nspname, 'USAGE') AS used,
           has_schema_privilege('vics_app', nspname, 'CREATE') AS shaped
         FROM pg_namespace WHERE nspname = 'vics_jobs'`,
        new URL(owner).pathname.slice(1),
      );
      expect(jobs.rows).toEqual([
        { owner: "vics_owner", used: true, shaped: false },
      ]);
      await Promise.all(
        stores.map((store, index) =>
          store.appendAudit(auditEvent({ requestId: `replica-${index}` })),
        ),
      );
      expect(await stores[0]!.searchAudit({ limit: 10 })).toHaveLength(3);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });

  it("an older release starting beside a newer one (a rolling upgrade) neither refuses to start nor takes back the newer grants", async () => {
    const { owner, app } = await freshDatabase();
    await (await open(app, owner)).close();
    const database = new URL(owner).pathname.slice(1);
    // What a newer release's step would do: a column, granted to the app role, recorded.
    await postgres().query(
      `ALTER TABLE users ADD COLUMN nickname text;
       GRANT UPDATE (nickname) ON users TO vics_app;
       INSERT INTO vics_proxy_migrations (step) VALUES (${MIGRATIONS.length + 1})`,
      database,
    );
    // This release, with the owner's URL and without it.
    await (await open(app, owner)).close();
    await (await open(app)).close();
    expect(
      await refusal(app, "UPDATE users SET nickname = 'x' WHERE false"),
    ).toBeUndefined();
  });

  it("starts with only the app role's URL once the owner has set the database up, and says what is missing before", async () => {
    const { owner, app } = await freshDatabase();
    await expect(open(app)).rejects.toThrow(/MIGRATION_DATABASE_URL/);
    await (await open(app, owner)).close();
    const store = await open(app);
    await store.appendAudit(auditEvent());
    expect(await store.searchAudit({ limit: 1 })).toHaveLength(1);
    await store.close();
    // A retention is the owner's to record: the app role alone keeps the owner's.
    const longer = await open(app, undefined, 60);
    await longer.close();
    const { rows } = await postgres().query(
      "SELECT value FROM proxy_settings WHERE name = 'audit_retention_days'",
      new URL(owner).pathname.slice(1),
    );
    expect(rows).toEqual([{ value: "30" }]);
  });

  it("throws DependencyUnavailableError while PostgreSQL is down, and works again once it is back, without reopening", async () => {
    const { owner } = await freshDatabase();
    const store = await open(owner);
    try {
      await store.appendAudit(auditEvent({ requestId: "before" }));
      await postgres().stop();
      await expect(store.ping()).rejects.toBeInstanceOf(
        DependencyUnavailableError,
      );
      await expect(
        store.findUserByEmail("ann@example.org"),
      ).rejects.toBeInstanceOf(DependencyUnavailableError);
      await expect(
        store.appendAudit(auditEvent({ requestId: "lost" })),
      ).rejects.toBeInstanceOf(DependencyUnavailableError);
      await expect(open(owner)).rejects.toBeInstanceOf(
        DependencyUnavailableError,
      );
      await postgres().start();
      await store.ping();
      await store.appendAudit(auditEvent({ requestId: "after" }));
      expect(
        (await store.searchAudit({ limit: 10 })).map((e) => e.requestId),
      ).toEqual(["after", "before"]);
    } finally {
      await postgres().start();
      await store.close();
    }
  }, 60_000);
});

describe("the PostgreSQL proxy store's observers (the metrics)", () => {
  it("gives its pool once set up, and tells of each audit batch written, and of one that failed while PostgreSQL was down", async () => {
    const { owner } = await freshDatabase();
    const pools: PgPool[] = [];
    const batches: (number | "failed")[] = [];
    const store = await openPostgresProxyStore({
      url: owner,
      auditRetentionDays: 30,
      applicationName: "vics-proxy-test",
      watchPool: (pool) => pools.push(pool),
      auditWrites: {
        written: (seconds) => batches.push(seconds),
        failed: () => batches.push("failed"),
      },
    });
    try {
      expect(pools).toHaveLength(1);
      await store.appendAudit(auditEvent({ requestId: "observed" }));
      expect(batches).toEqual([expect.any(Number)]);
      expect(pools[0]!.totalCount).toBeGreaterThanOrEqual(1);
      await postgres().stop();
      await expect(
        store.appendAudit(auditEvent({ requestId: "lost" })),
      ).rejects.toBeInstanceOf(DependencyUnavailableError);
      expect(batches).toEqual([expect.any(Number), "failed"]);
    } finally {
      await postgres().start();
      await store.close();
    }
  }, 60_000);
});
