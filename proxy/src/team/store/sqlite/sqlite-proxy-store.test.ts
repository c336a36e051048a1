import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { auditEvent, proxyStoreContract } from "../proxy-store.contract.ts";
import { openSqliteProxyStore } from "./sqlite-proxy-store.ts";
import {
  alertsBeforeGrouping,
  expectAlertsGroupedBySweep,
} from "../watch-store.contract.ts";
import { OLD_DELIVERY_WORDS } from "../old-delivery-words.ts";
import {
  DATE_UNSUBSCRIBE_LINKS,
  GROUP_NOTIFICATIONS,
  migrate,
  MIGRATIONS as MIGRATION_STEPS,
  SCRUB_ENDPOINT_WORDS,
} from "./schema.ts";

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "vics-proxy-store-"));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});
const open = (retention = 30) =>
  openSqliteProxyStore({
    path: join(folder, "proxy.db"),
    auditRetentionDays: retention,
  });

describe("the SQLite proxy store", () => {
  proxyStoreContract(async () => open());
});

describe("the SQLite audit log, through SQL that bypasses the store", () => {
  it("refuses every update, and every delete of an event younger than the retention period", async () => {
    const store = open(30);
    const now = Date.now();
    await store.appendAudit(
      auditEvent({ at: now - 40 * 86_400_000, requestId: "old" }),
    );
    await store.appendAudit(auditEvent({ at: now, requestId: "new" }));
    const db = new DatabaseSync(join(folder, "proxy.db"));
    try {
      expect(() => db.exec("UPDATE audit_events SET outcome = '404'")).toThrow(
        /audit events cannot be changed/,
      );
      expect(() =>
        db.exec("UPDATE audit_registrations SET registration = 'X'"),
      ).toThrow(/cannot be changed/);
      // Only an aggregated event's count may change, and only upwards.
      expect(() =>
        db.exec("UPDATE audit_events SET attempts = attempts + 1"),
      ).toThrow(/cannot be changed/);
      expect(() => db.exec("DELETE FROM audit_registrations")).toThrow(
        /retention period/,
      );
      expect(() => db.exec("DELETE FROM audit_events")).toThrow(
        /retention period/,
      );
      // Removing the retention setting does not open the door: it then counts as a century.
      db.exec("DELETE FROM settings");
      expect(() =>
        db.exec("DELETE FROM audit_events WHERE request_id = 'old'"),
      ).toThrow(/retention period/);
    } finally {
      db.close();
      await store.close();
    }
    const reopened = open(30);
    expect(
      (await reopened.searchAudit({ limit: 10 })).map((e) => e.requestId),
    ).toEqual(["new", "old"]);
    expect(await reopened.pruneAudit(now)).toBe(1);
    await reopened.close();
  });

  it("opens a file again without running its migration twice", async () => {
    const stores = [open(), open(), open()];
    const db = new DatabaseSync(join(folder, "proxy.db"));
    // As many steps as a new database takes, whoever added the last one.
    const fresh = new DatabaseSync(":memory:");
    migrate(fresh);
    expect(db.prepare("PRAGMA user_version").get()).toEqual(
      fresh.prepare("PRAGMA user_version").get(),
    );
    fresh.close();
    db.close();
    await Promise.all(stores.map((store) => store.close()));
  });
});

describe("the delivery log written before issue 33", () => {
  it("keeps the status and VICS's own words of a failure, never what the endpoint said", () => {
    const db = new DatabaseSync(":memory:");
    migrate(db);
    for (const [index, { before }] of OLD_DELIVERY_WORDS.entries()) {
      const { lastInsertRowid: webhook } = db
        .prepare(
          `INSERT INTO webhooks (url, description, allow_private, secret, created_at, last_error)
           VALUES ('https://hooks.example.org/in', '', 0, 'x', 0, ?)`,
        )
        .run(before);
      const { lastInsertRowid: delivery } = db
        .prepare(
          `INSERT INTO deliveries (alert_id, fleet_id, channel, target, timing, status, note, created_at)
           VALUES (?, 'f', 'webhook', ?, 'now', 'failed', ?, 0)`,
        )
        .run(index, String(webhook), before);
      db.prepare(
        "INSERT INTO delivery_attempts (delivery_id, at, ok, detail) VALUES (?, 0, 0, ?)",
      ).run(delivery, before);
    }
    // A step of its own, which every store made before runs once.
    expect(MIGRATION_STEPS).toContain(SCRUB_ENDPOINT_WORDS);
    db.exec(SCRUB_ENDPOINT_WORDS);
    const words = (sql: string) =>
      db
        .prepare(sql)
        .all()
        .map((row) => Object.values(row)[0]);
    const after = OLD_DELIVERY_WORDS.map((words) => words.after);
    expect(words("SELECT last_error FROM webhooks ORDER BY id")).toEqual(after);
    expect(words("SELECT note FROM deliveries ORDER BY id")).toEqual(after);
    expect(words("SELECT detail FROM delivery_attempts ORDER BY id")).toEqual(
      after,
    );
    db.close();
  });
});

describe("a store made before unsubscribe links carried their email's time", () => {
  it("records when it was upgraded, the time an undated link counts as sent", async () => {
    const db = new DatabaseSync(join(folder, "proxy.db"));
    const step = MIGRATION_STEPS.indexOf(DATE_UNSUBSCRIBE_LINKS);
    expect(step).toBeGreaterThan(0);
    for (const [version, sql] of MIGRATION_STEPS.slice(0, step).entries()) {
      db.exec(sql);
      db.exec(`PRAGMA user_version = ${version + 1}`);
    }
    db.close();
    const before = Date.now();
    const store = open();
    const after = Date.now();
    const at = await store.unsubscribeLinksDatedFrom();
    expect(at).toBeGreaterThanOrEqual(before - 1);
    expect(at).toBeLessThanOrEqual(after);
    await store.close();
    // Opened again later, it keeps the time of the upgrade.
    const again = open();
    expect(await again.unsubscribeLinksDatedFrom()).toBe(at);
    await again.close();
  });
});

describe("a store made before notifications were grouped by sweep", () => {
  it("gives each old alert the sweep that ran when it opened, and keeps every one a notification (issue 34)", async () => {
    const db = new DatabaseSync(join(folder, "proxy.db"));
    const step = MIGRATION_STEPS.indexOf(GROUP_NOTIFICATIONS);
    expect(step).toBeGreaterThan(0);
    for (const [version, sql] of MIGRATION_STEPS.slice(0, step).entries()) {
      db.exec(sql);
      db.exec(`PRAGMA user_version = ${version + 1}`);
    }
    db.exec(alertsBeforeGrouping(""));
    db.close();
    await expectAlertsGroupedBySweep(open());
  });
});
