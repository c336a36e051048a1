import pg from "pg";
import { describe, expect, it } from "vitest";
import { migratePg } from "@vics/server-kit/postgres";
import { sharedPostgres } from "@vics/server-kit/testing/postgres-server";
import { ownedDatabases } from "../../../testing/owned-database.ts";
import { auditEvent } from "../proxy-store.contract.ts";
import type { AuditEvent } from "../proxy-store.ts";
import { openPostgresProxyStore } from "./postgres-proxy-store.ts";
import { MIGRATIONS, MIGRATIONS_NAME } from "./schema.ts";

const DAY_MS = 86_400_000;
const month = (at: number) => {
  const date = new Date(at);
  return (date.getUTCFullYear() - 1970) * 12 + date.getUTCMonth();
};

const postgres = sharedPostgres();
const freshDatabase = ownedDatabases(postgres, "partitions");

const open = (url: string, migrationUrl?: string, auditRetentionDays = 30) =>
  openPostgresProxyStore({
    url,
    migrationUrl,
    auditRetentionDays,
    applicationName: "vics-proxy-test",
  });

async function query<T extends pg.QueryResultRow>(url: string, text: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

const partitions = (url: string) =>
  query<{ lower: number; upper: number; suffix: string }>(
    url,
    "SELECT lower, upper, suffix FROM audit_partitions ORDER BY lower",
  );

describe("the PostgreSQL audit log's partitions (issue 37, point 5)", () => {
  it("drops a partition whole once its last month is past the retention period, and keeps one that is not", async () => {
    const { owner, app } = await freshDatabase();
    const store = await open(app, owner);
    const now = Date.now();
    const cutoff = now - 30 * DAY_MS;
    try {
      await store.appendAudit(
        auditEvent({ at: now - 100 * DAY_MS, requestId: "gone" }),
      );
      // Past the period by a millisecond, in a month that is not over before the cutoff.
      await store.appendAudit(
        auditEvent({ at: cutoff - 1, requestId: "past, kept" }),
      );
      await store.appendAudit(auditEvent({ at: now, requestId: "new" }));
      const before = await partitions(owner);
      expect(before.map((p) => p.upper - p.lower)).toEqual(before.map(() => 1));
      expect(before.map((p) => p.lower)).toContain(month(now - 100 * DAY_MS));
      expect(await store.pruneAudit(now)).toBe(1);
      const after = await partitions(owner);
      expect(after.map((p) => p.lower)).not.toContain(
        month(now - 100 * DAY_MS),
      );
      expect(after.map((p) => p.lower)).toContain(month(cutoff - 1));
      // The prune made this month's and the next's before any event is written to them.
      expect(after.map((p) => p.lower)).toContain(month(now) + 1);
      const tables = await query<{ name: string }>(
        owner,
        "SELECT relname AS name FROM pg_class WHERE relname LIKE 'audit_%\\_20%'",
      );
      const dropped = before.find(
        (p) => p.lower === month(now - 100 * DAY_MS),
      )!;
      expect(tables.map((t) => t.name)).not.toContain(
        `audit_events_${dropped.suffix}`,
      );
      expect(tables.map((t) => t.name)).not.toContain(
        `audit_registrations_${dropped.suffix}`,
      );
      expect(
        (await store.searchAudit({ limit: 10 })).map((e) => e.requestId),
      ).toEqual(["new", "past, kept"]);
      expect(
        (await store.searchAudit({ registration: "AB12CDE", limit: 10 })).map(
          (e) => e.requestId,
        ),
      ).toEqual(["new", "past, kept"]);
    } finally {
      await store.close();
    }
  });

  it("sizes a partition to about a tenth of the retention period, and never overlaps an older one", async () => {
    const { owner } = await freshDatabase();
    const tenYears = await open(owner, undefined, 3650);
    const now = Date.now();
    await tenYears.appendAudit(auditEvent({ at: now - 800 * DAY_MS }));
    await tenYears.close();
    const yearly = await partitions(owner);
    expect(yearly.map((p) => p.upper - p.lower)).toEqual(yearly.map(() => 12));
    expect(yearly.map((p) => p.lower % 12)).toEqual(yearly.map(() => 0));
    const oneMonth = await open(owner, undefined, 30);
    // A month the yearly partitions do not cover gets a month's partition beside them.
    // The month after the last yearly partition: none covers it.
    const lastYearEnds = Math.max(...yearly.map((p) => p.upper));
    const later = Date.UTC(
      1970 + Math.floor(lastYearEnds / 12),
      lastYearEnds % 12,
      15,
    );
    await oneMonth.appendAudit(auditEvent({ at: later, requestId: "later" }));
    expect(
      (await oneMonth.searchAudit({ limit: 1 })).map((e) => e.requestId),
    ).toEqual(["later"]);
    await oneMonth.close();
    const mixed = await partitions(owner);
    for (const [index, part] of mixed.entries())
      if (index > 0)
        expect(part.lower).toBeGreaterThanOrEqual(mixed[index - 1]!.upper);
    expect(mixed.find((p) => p.lower === month(later))?.upper).toBe(
      month(later) + 1,
    );
  });

  it("pages newest first across months written out of order, by replicas at once, losing and repeating nothing", async () => {
    const { owner, app } = await freshDatabase();
    const stores = [await open(app, owner), await open(app, owner)];
    const now = Date.now();
    try {
      const written: AuditEvent[] = [];
      // Months apart, each month's events from both replicas, the older months written last.
      for (const monthsBack of [0, 3, 1, 2])
        written.push(
          ...(await Promise.all(
            Array.from({ length: 6 }, (_, index) =>
              stores[index % 2]!.appendAudit(
                auditEvent({
                  at: now - monthsBack * 31 * DAY_MS - index,
                  requestId: `${monthsBack}-${index}`,
                }),
              ),
            ),
          )),
        );
      for (const event of written)
        expect(month(event.at)).toBe(Math.floor(event.id / 2 ** 40));
      const newestFirst = [...written].sort((a, b) => b.id - a.id);
      // Newest first is by month, then the order written.
      expect(newestFirst.map((e) => month(e.at))).toEqual(
        written.map((e) => month(e.at)).sort((a, b) => b - a),
      );
      for (const registration of [undefined, "AB12CDE"]) {
        const pages: AuditEvent[] = [];
        let before: number | undefined;
        for (;;) {
          const page = await stores[1]!.searchAudit({
            registration,
            before,
            limit: 5,
          });
          pages.push(...page);
          if (page.length < 5) break;
          before = page.at(-1)!.id;
        }
        expect(pages).toEqual(newestFirst);
      }
      const twoMonthsBack = now - 2 * 31 * DAY_MS;
      const window = await stores[0]!.searchAudit({
        registration: "AB12CDE",
        from: twoMonthsBack - 10,
        to: twoMonthsBack + 1,
        limit: 10,
      });
      expect(window.map((e) => e.requestId)).toEqual(
        newestFirst
          .filter((e) => e.at >= twoMonthsBack - 10 && e.at <= twoMonthsBack)
          .map((e) => e.requestId),
      );
      expect(window).toHaveLength(6);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });

  it("moves the events of a store made before partitions into them, renumbered in their order, and goes on counting their aggregates", async () => {
    const { owner } = await freshDatabase();
    const pool = new pg.Pool({ connectionString: owner });
    const now = Date.now();
    try {
      await migratePg(pool, {
        name: MIGRATIONS_NAME,
        steps: MIGRATIONS.slice(0, -1),
      });
      await pool.query(
        `INSERT INTO proxy_settings VALUES ('audit_retention_days', '30');
         INSERT INTO audit_events (at, user_id, user_email, action, registrations, outcome,
           request_id, client_address, detail, aggregate_key, attempts, last_at) VALUES
         (${now - 70 * DAY_MS}, 'u1', 'ann@example.org', 'check.insurance', '{AB12CDE}', '200',
           'oldest', '127.0.0.1', NULL, NULL, 1, NULL),
         (${now - 5000}, 'u1', 'ann@example.org', 'user.role', '{}', 'ok', 'role', '127.0.0.1',
           '{"from": "staff", "to": "admin"}', NULL, 1, NULL),
         (${now - 4000}, NULL, 'eve@example.org', 'sign-in', '{}', 'throttled', 'flood',
           '10.0.0.9', NULL, 'flood-key', 3, ${now - 3000});
         INSERT INTO audit_registrations (registration, event_id, at)
           SELECT 'AB12CDE', id, at FROM audit_events WHERE request_id = 'oldest';`,
      );
    } finally {
      await pool.end();
    }
    const store = await open(owner);
    try {
      const events = await store.searchAudit({ limit: 10 });
      expect(
        events.map((e) => [e.requestId, e.id % 2 ** 40, month(e.at)]),
      ).toEqual([
        ["flood", 3, month(now - 4000)],
        ["role", 2, month(now - 5000)],
        ["oldest", 1, month(now - 70 * DAY_MS)],
      ]);
      expect(events[1]!.detail).toEqual({ from: "staff", to: "admin" });
      expect(events[0]).toMatchObject({ count: 3, lastAt: now - 3000 });
      expect(
        (await store.searchAudit({ registration: "AB12CDE", limit: 10 })).map(
          (e) => e.requestId,
        ),
      ).toEqual(["oldest"]);
      const counted = await store.appendAudit(
        auditEvent({
          at: now - 2000,
          requestId: "again",
          aggregate: "flood-key",
        }),
      );
      expect(counted).toMatchObject({ id: events[0]!.id, count: 4 });
      const next = await store.appendAudit(
        auditEvent({ at: now, requestId: "next" }),
      );
      // After the moved ones (the counted aggregate took a number too, unused).
      expect(next.id % 2 ** 40).toBeGreaterThan(3);
      expect(Math.floor(next.id / 2 ** 40)).toBe(month(now));
      expect(await store.pruneAudit(now)).toBe(1);
    } finally {
      await store.close();
    }
  });

  it("searches with prepared statements that a later release's new column does not break", async () => {
    const { owner } = await freshDatabase();
    const store = await open(owner);
    try {
      await store.appendAudit(auditEvent({ requestId: "one" }));
      const search = async () => [
        ...(await store.searchAudit({ limit: 5 })),
        ...(await store.searchAudit({ registration: "AB12CDE", limit: 5 })),
      ];
      // More than five runs: PostgreSQL may then keep one generic plan per statement.
      for (let run = 0; run < 8; run++)
        expect((await search()).map((e) => e.requestId)).toEqual([
          "one",
          "one",
        ]);
      await query(owner, "ALTER TABLE audit_events ADD COLUMN later text");
      expect((await search()).map((e) => e.requestId)).toEqual(["one", "one"]);
    } finally {
      await store.close();
    }
  });

  it("makes a longer partition beside shorter ones without overlapping them, once the retention grows", async () => {
    const { owner } = await freshDatabase();
    const now = Date.now();
    const monthly = await open(owner, undefined, 30);
    // Monthly partitions now and next month (made by the prune), and four months back.
    await monthly.pruneAudit(now);
    await monthly.appendAudit(auditEvent({ at: now - 4 * 31 * DAY_MS }));
    await monthly.close();
    const yearly = await open(owner, undefined, 3650);
    const between = now - 2 * 31 * DAY_MS;
    await yearly.appendAudit(auditEvent({ at: between, requestId: "between" }));
    await yearly.close();
    const parts = await partitions(owner);
    for (const [index, part] of parts.entries())
      if (index > 0)
        expect(part.lower).toBeGreaterThanOrEqual(parts[index - 1]!.upper);
    const holding = parts.find(
      (p) => p.lower <= month(between) && p.upper > month(between),
    )!;
    // Cut short by the monthly partitions around it, inside the year it was aligned to.
    expect(holding.lower).toBeGreaterThan(month(now - 4 * 31 * DAY_MS));
    expect(holding.upper).toBeLessThanOrEqual(month(now));
    expect(holding.upper - holding.lower).toBeGreaterThanOrEqual(1);
  });

  it("deletes the old rows of a partition made longer than today's length, once the retention is shortened", async () => {
    const { owner } = await freshDatabase();
    const now = Date.now();
    const tenYears = await open(owner, undefined, 3650);
    await tenYears.appendAudit(
      auditEvent({ at: now - 45 * DAY_MS, requestId: "old" }),
    );
    await tenYears.appendAudit(auditEvent({ at: now, requestId: "new" }));
    await tenYears.close();
    const shorter = await open(owner, undefined, 30);
    try {
      expect(await shorter.pruneAudit(now)).toBe(1);
      expect(
        (await shorter.searchAudit({ limit: 10 })).map((e) => e.requestId),
      ).toEqual(["new"]);
      // This year's partition, longer than a month, is still there for the new event.
      const parts = await partitions(owner);
      expect(
        parts.some(
          (p) =>
            p.lower <= month(now) &&
            p.upper > month(now) &&
            p.upper - p.lower > 1,
        ),
      ).toBe(true);
    } finally {
      await shorter.close();
    }
  });

  it("lets the app role make partitions only up to two years ahead, and write no id whose month is not the event's", async () => {
    const { owner, app } = await freshDatabase();
    const store = await open(app, owner);
    // This month's partition, so the row below meets its CHECK, not a missing partition.
    await store.pruneAudit(Date.now());
    await store.close();
    const farAhead = Date.now() + 3 * 365 * DAY_MS;
    await expect(
      query(app, `SELECT audit_add_partitions(0, ${farAhead})`),
    ).rejects.toThrow(/two years ahead/);
    const now = Date.now();
    const wrongMonth = (month(now) - 1) * 2 ** 40 + 1;
    await expect(
      query(
        app,
        `INSERT INTO audit_events (id, month, at, action, registrations, outcome)
         VALUES (${wrongMonth}, ${month(now)}, ${now}, 'sign-in', '{}', 'ok')`,
      ),
    ).rejects.toThrow(/check constraint/);
  });
});
