import type {
  AuditAction,
  AuditEvent,
  AuditQuery,
  AuditStore,
  NewAuditEvent,
} from "../proxy-store.ts";
import type { Sql } from "./database.ts";

interface AuditRow {
  id: number;
  at: number;
  user_id: string | null;
  user_email: string | null;
  action: AuditAction;
  registrations: string[];
  outcome: string;
  request_id: string | null;
  client_address: string | null;
  detail: Record<string, string | number | boolean | null> | null;
}

const toEvent = (row: AuditRow): AuditEvent => ({
  id: row.id,
  at: row.at,
  userId: row.user_id,
  userEmail: row.user_email,
  action: row.action,
  registrations: row.registrations,
  outcome: row.outcome,
  requestId: row.request_id,
  clientAddress: row.client_address,
  ...(row.detail !== null && { detail: row.detail }),
});

const DAY_MS = 86_400_000;

/** Events in one statement at most: a bound on its size when a backlog has built up. */
const MAX_BATCH = 500;

/**
 * The batch is one JSON parameter, read back as rows in its order; the identity column numbers
 * them in that order, so the ids in ascending order are the events' ids in the batch's order.
 * One statement: the events and their registrations' rows are committed together, or not at all.
 */
const INSERT_BATCH = `
  WITH inserted AS (
    INSERT INTO audit_events (at, user_id, user_email, action, registrations, outcome, request_id, client_address, detail)
    SELECT b.at, b.user_id, b.user_email, b.action,
      ARRAY(SELECT jsonb_array_elements_text(b.registrations)),
      b.outcome, b.request_id, b.client_address, b.detail
    FROM jsonb_to_recordset($1::jsonb) AS b(n int, at bigint, user_id text, user_email text,
      action text, registrations jsonb, outcome text, request_id text, client_address text, detail jsonb)
    ORDER BY b.n
    RETURNING id, at, registrations
  ), indexed AS (
    INSERT INTO audit_registrations (registration, event_id, at)
    SELECT DISTINCT r.registration, i.id, i.at FROM inserted i, unnest(i.registrations) AS r(registration)
  )
  SELECT id FROM inserted ORDER BY id`;

const batchJson = (events: readonly NewAuditEvent[]) =>
  JSON.stringify(
    events.map((event, n) => ({
      n,
      at: event.at,
      user_id: event.userId,
      user_email: event.userEmail,
      action: event.action,
      registrations: event.registrations,
      outcome: event.outcome,
      request_id: event.requestId,
      client_address: event.clientAddress,
      detail: event.detail ?? null,
    })),
  );

interface Pending {
  event: NewAuditEvent;
  resolve: (event: AuditEvent) => void;
  reject: (error: unknown) => void;
}

export interface PostgresAuditStore extends AuditStore {
  /** Resolves once every event appended so far is written (or refused): before closing. */
  drain(): Promise<void>;
}

export function auditQueries(
  sql: Sql,
  retentionDays: number,
): PostgresAuditStore {
  // Group commit: the events of the requests in flight together go in one multi-row INSERT,
  // and each request is answered only once it is committed. One batch is written at a time;
  // the events that arrive meanwhile are the next one.
  let pending: Pending[] = [];
  let writing: Promise<void> | undefined;

  const writeBatches = async () => {
    while (pending.length > 0) {
      const batch = pending.slice(0, MAX_BATCH);
      pending = pending.slice(MAX_BATCH);
      try {
        const { rows } = await sql<{ id: number }>(INSERT_BATCH, [
          batchJson(batch.map(({ event }) => event)),
        ]);
        if (rows.length !== batch.length)
          throw new Error(
            `audit batch of ${batch.length} events returned ${rows.length} ids`,
          );
        batch.forEach(({ event, resolve }, index) =>
          resolve({ ...event, id: rows[index]!.id }),
        );
      } catch (error) {
        // Nothing of the batch was committed: every request of it fails, none answers unrecorded.
        for (const { reject } of batch) reject(error);
      }
    }
    writing = undefined;
  };

  return {
    appendAudit(event) {
      return new Promise<AuditEvent>((resolve, reject) => {
        pending.push({ event, resolve, reject });
        // The next turn of the event loop: the requests answered in this one join the batch.
        writing ??= new Promise((next) => setImmediate(next)).then(
          writeBatches,
        );
      });
    },
    async searchAudit(query: AuditQuery) {
      const where: string[] = [];
      const params: unknown[] = [];
      const param = (value: unknown) => {
        params.push(value);
        return `$${params.length}`;
      };
      let from = "audit_events e";
      let id = "e.id";
      if (query.registration !== undefined) {
        // Driven by the registration's index, newest first: stops after `limit` rows.
        from = "audit_registrations r JOIN audit_events e ON e.id = r.event_id";
        id = "r.event_id";
        where.push(`r.registration = ${param(query.registration)}`);
      }
      if (query.userId !== undefined)
        where.push(`e.user_id = ${param(query.userId)}`);
      if (query.from !== undefined) where.push(`e.at >= ${param(query.from)}`);
      if (query.to !== undefined) where.push(`e.at < ${param(query.to)}`);
      if (query.checksOnly) where.push("e.action LIKE 'check.%'");
      if (query.before !== undefined)
        where.push(`${id} < ${param(query.before)}`);
      const { rows } = await sql<AuditRow>(
        `SELECT e.* FROM ${from} ${
          where.length > 0 ? `WHERE ${where.join(" AND ")}` : ""
        } ORDER BY ${id} DESC LIMIT ${param(query.limit)}`,
        params,
      );
      return rows.map(toEvent);
    },
    async pruneAudit(now) {
      // prune_audit runs as the owner, and keeps what the database's own retention keeps.
      const { rows } = await sql<{ removed: number }>(
        "SELECT prune_audit($1) AS removed",
        [now - retentionDays * DAY_MS],
      );
      return rows[0]!.removed;
    },
    async drain() {
      while (writing) await writing;
    },
  };
}
