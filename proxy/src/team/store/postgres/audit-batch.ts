import type { AuditEvent, NewAuditEvent } from "../proxy-store.ts";
import type { Sql } from "./database.ts";
import { preparedText } from "../kysely/precompiled.ts";

/**
 * The batch is one JSON parameter, read back as rows; each event's id carries its month
 * (audit-partitions.ts) and the answer comes back in the batch's order (`n`). An aggregated
 * event (aggregate_key) is written once, and later only counts: the batch holds each key once
 * (`mergeAggregates`), with its attempts, and is known by its key (its `n` is null when it
 * only counted). One statement: the events and their registrations' rows are committed
 * together, or not at all.
 */
const INSERT_BATCH = preparedText(`
  WITH batch AS MATERIALIZED (
    SELECT b.*, audit_event_id(b.at) AS id, audit_month(b.at) AS month
    FROM jsonb_to_recordset($1::jsonb) AS b(n int, at bigint, user_id text, user_email text,
      action text, registrations jsonb, outcome text, request_id text, client_address text, detail jsonb,
      correlation_id text, aggregate_key text, attempts int, last_at bigint)
  ), inserted AS (
    INSERT INTO audit_events (id, month, at, user_id, user_email, action, registrations, outcome,
      request_id, client_address, detail, correlation_id, aggregate_key, attempts, last_at)
    SELECT b.id, b.month, b.at, b.user_id, b.user_email, b.action,
      ARRAY(SELECT jsonb_array_elements_text(b.registrations)),
      b.outcome, b.request_id, b.client_address, b.detail, b.correlation_id, b.aggregate_key,
      b.attempts, b.last_at
    FROM batch b
    ON CONFLICT (aggregate_key, month) DO UPDATE SET
      attempts = audit_events.attempts + excluded.attempts,
      last_at = greatest(audit_events.last_at, excluded.last_at)
    RETURNING id, month, at, registrations, aggregate_key, attempts, last_at
  ), indexed AS (
    INSERT INTO audit_registrations (registration, month, event_id, at)
    SELECT DISTINCT r.registration, i.month, i.id, i.at
    FROM inserted i, unnest(i.registrations) AS r(registration)
    ON CONFLICT DO NOTHING
  )
  SELECT i.id, i.aggregate_key, i.attempts, i.last_at, b.n
  FROM inserted i LEFT JOIN batch b ON b.id = i.id ORDER BY b.n, i.id`);

/** Every month of the batch has its partition (made by the owner's function if not). */
const ADD_PARTITIONS = "SELECT audit_add_partitions($1, $2)";

/**
 * PostgreSQL's code when a row's month has no partition yet (a check_violation, whatever the
 * server's language): the partitions are made and the batch tried once more.
 */
const NO_PARTITION = "23514";

/** An aggregated event of the batch, once per key: its first attempt, counted with the rest. */
interface BatchEntry {
  event: NewAuditEvent;
  attempts: number;
  lastAt: number;
}

function mergeAggregates(events: readonly NewAuditEvent[]): BatchEntry[] {
  const entries: BatchEntry[] = [];
  const byKey = new Map<string, BatchEntry>();
  for (const event of events) {
    const key = event.aggregate;
    const known = key === undefined ? undefined : byKey.get(key);
    if (known) {
      known.attempts++;
      known.lastAt = Math.max(known.lastAt, event.at);
      continue;
    }
    const entry = { event, attempts: 1, lastAt: event.at };
    entries.push(entry);
    if (key !== undefined) byKey.set(key, entry);
  }
  return entries;
}

const batchJson = (entries: readonly BatchEntry[]) =>
  JSON.stringify(
    entries.map(({ event, attempts, lastAt }, n) => ({
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
      correlation_id: event.correlationId ?? null,
      aggregate_key: event.aggregate ?? null,
      attempts,
      last_at: event.aggregate === undefined ? null : lastAt,
    })),
  );

interface InsertedRow {
  id: number;
  /** The event's place in the batch; null for an aggregate that only counted. */
  n: number | null;
  aggregate_key: string | null;
  attempts: number;
  last_at: number | null;
}

/** Each event of the batch as committed: a plain one by order, an aggregated one by its key. */
function committed(
  events: readonly NewAuditEvent[],
  entries: number,
  rows: readonly InsertedRow[],
): AuditEvent[] {
  if (rows.length !== entries)
    throw new Error(
      `audit batch of ${entries} events returned ${rows.length} ids`,
    );
  // In the batch's order: the plain events' rows come first, by `n`.
  const plain = rows.filter((row) => row.aggregate_key === null);
  const byKey = new Map(rows.map((row) => [row.aggregate_key, row]));
  let next = 0;
  return events.map(({ aggregate, ...event }) => {
    if (aggregate === undefined) return { ...event, id: plain[next++]!.id };
    const row = byKey.get(aggregate)!;
    return {
      ...event,
      id: row.id,
      count: row.attempts,
      lastAt: Number(row.last_at),
    };
  });
}

/**
 * PostgreSQL's batch: its events in one multi-row INSERT, their registrations' rows with them.
 * A month with no partition yet (the first event of a month the daily pruning has not made
 * ready, or an event dated far back) has it made, and the batch is written again.
 */
export const writeAuditBatch =
  (sql: Sql) =>
  async (events: readonly NewAuditEvent[]): Promise<AuditEvent[]> => {
    const entries = mergeAggregates(events);
    const json = batchJson(entries);
    // Prepared (its text is marked): each connection plans it once, not every batch.
    const insert = () => sql<InsertedRow>(INSERT_BATCH, [json]);
    const { rows } = await insert().catch(async (error: unknown) => {
      if ((error as { code?: unknown } | null)?.code !== NO_PARTITION)
        throw error;
      const times = events.map((event) => event.at);
      await sql(ADD_PARTITIONS, [Math.min(...times), Math.max(...times)]);
      return insert();
    });
    return committed(events, entries.length, rows);
  };
