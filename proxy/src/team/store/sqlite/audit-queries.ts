import type { DatabaseSync, SQLInputValue } from "node:sqlite";
import { inTransaction } from "@vics/server-kit/sqlite";
import type {
  AuditEvent,
  AuditQuery,
  AuditStore,
  NewAuditEvent,
} from "../proxy-store.ts";
import { toAuditEvent, type AuditRow } from "../audit-rows.ts";

const DAY_MS = 86_400_000;

export function auditQueries(
  db: DatabaseSync,
  retentionDays: number,
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

  // Group commit: the events of the requests in flight together are written in one
  // transaction, with one sync to disk, and each request is answered only once it is committed.
  // One sync per event (synchronous = FULL) held the event loop for every check.
  let pending: Array<{
    event: NewAuditEvent;
    resolve: (event: AuditEvent) => void;
    reject: (error: unknown) => void;
  }> = [];
  const flush = () => {
    const batch = pending;
    pending = [];
    try {
      const events = inTransaction(db, () =>
        batch.map(({ event }) => insertEvent(event)),
      );
      batch.forEach(({ resolve }, index) => resolve(events[index]!));
    } catch (error) {
      // Nothing of the batch was committed: every request of it fails, none answers unrecorded.
      for (const { reject } of batch) reject(error);
    }
  };

  return {
    appendAudit(event: NewAuditEvent) {
      return new Promise<AuditEvent>((resolve, reject) => {
        if (pending.length === 0) setImmediate(flush);
        pending.push({ event, resolve, reject });
      });
    },
    async searchAudit(query: AuditQuery) {
      const where: string[] = [];
      const params: SQLInputValue[] = [];
      if (query.registration !== undefined) {
        where.push(
          "e.id IN (SELECT event_id FROM audit_registrations WHERE registration = ?)",
        );
        params.push(query.registration);
      }
      if (query.userId !== undefined) {
        where.push("e.user_id = ?");
        params.push(query.userId);
      }
      if (query.userEmail !== undefined) {
        where.push("e.user_email = ?");
        params.push(query.userEmail);
      }
      if (query.from !== undefined) {
        where.push("e.at >= ?");
        params.push(query.from);
      }
      if (query.to !== undefined) {
        where.push("e.at < ?");
        params.push(query.to);
      }
      if (query.checksOnly) where.push("e.action LIKE 'check.%'");
      if (query.before !== undefined) {
        where.push("e.id < ?");
        params.push(query.before);
      }
      const sql = `SELECT e.* FROM audit_events e ${
        where.length > 0 ? `WHERE ${where.join(" AND ")}` : ""
      } ORDER BY e.id DESC LIMIT ?`;
      params.push(query.limit);
      return (db.prepare(sql).all(...params) as unknown as AuditRow[]).map(
        toAuditEvent,
      );
    },
    async pruneAudit(now) {
      const cutoff = now - retentionDays * DAY_MS;
      return inTransaction(db, () => {
        pruneRegistrations.run(cutoff);
        return Number(pruneEvents.run(cutoff).changes);
      });
    },
  };
}
