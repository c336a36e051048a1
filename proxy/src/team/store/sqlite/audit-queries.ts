import type { DatabaseSync } from "node:sqlite";
import { inTransaction } from "@vics/server-kit/sqlite";
import type { AuditEvent, AuditStore, NewAuditEvent } from "../proxy-store.ts";
import { auditDb } from "../kysely/audit-tables.ts";
import { searchAudit } from "../kysely/audit-search.ts";
import { groupCommit, type BatchObserver } from "../audit-group-commit.ts";
import { sqliteKysely } from "./database.ts";
import type { KyselyStore } from "../kysely/spelling.ts";

const DAY_MS = 86_400_000;

/**
 * The audit in SQLite: the search is the shared one; the append and the pruning are SQLite's
 * own, each a synchronous transaction of several statements (inTransaction: its Kysely refuses
 * transactions, decision 063), with its statements prepared once.
 */
export function auditQueries(
  db: DatabaseSync,
  retentionDays: number,
  // The store passes its one Kysely; a test of the audit alone may leave it to this default.
  kysely: KyselyStore = sqliteKysely(db),
  /** Told of each batch written or failed (the metrics). */
  observer?: BatchObserver,
): AuditStore {
  // The triggers read the retention from here (schema.ts).
  db.prepare(
    "INSERT INTO settings (name, value) VALUES ('audit_retention_days', ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
  ).run(String(retentionDays));
  // An aggregated event (aggregate_key set) is written once; the attempts after it only count.
  const insert = db.prepare(
    `INSERT INTO audit_events (at, user_id, user_email, action, registrations, outcome, request_id, client_address, detail, correlation_id, aggregate_key, last_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (aggregate_key) DO UPDATE SET attempts = attempts + 1, last_at = max(last_at, excluded.last_at)
     RETURNING id, attempts, last_at`,
  );
  const insertRegistration = db.prepare(
    "INSERT OR IGNORE INTO audit_registrations (registration, event_id) VALUES (?, ?)",
  );
  const pruneRegistrations = db.prepare(
    "DELETE FROM audit_registrations WHERE event_id IN (SELECT id FROM audit_events WHERE at < ?)",
  );
  const pruneEvents = db.prepare("DELETE FROM audit_events WHERE at < ?");

  const insertEvent = (event: NewAuditEvent): AuditEvent => {
    const { aggregate, ...stored } = event;
    const { id, attempts, last_at } = insert.get(
      event.at,
      event.userId,
      event.userEmail,
      event.action,
      JSON.stringify(event.registrations),
      event.outcome,
      event.requestId,
      event.clientAddress,
      event.detail ? JSON.stringify(event.detail) : null,
      event.correlationId ?? null,
      aggregate ?? null,
      aggregate === undefined ? null : event.at,
    ) as { id: number; attempts: number; last_at: number | null };
    if (attempts === 1)
      for (const registration of event.registrations)
        insertRegistration.run(registration, id);
    return {
      ...stored,
      id,
      ...(aggregate !== undefined && { count: attempts, lastAt: last_at! }),
    };
  };

  // One transaction, one sync to disk (synchronous = FULL), for the events of a batch.
  const commits = groupCommit(
    (events: readonly NewAuditEvent[]) =>
      inTransaction(db, () => events.map(insertEvent)),
    Infinity,
    observer,
  );

  return {
    appendAudit: commits.append,
    searchAudit: searchAudit(
      auditDb(kysely.db),
      "in",
      kysely.spelling.readJson,
    ),
    async pruneAudit(now) {
      const cutoff = now - retentionDays * DAY_MS;
      return inTransaction(db, () => {
        pruneRegistrations.run(cutoff);
        return Number(pruneEvents.run(cutoff).changes);
      });
    },
  };
}
