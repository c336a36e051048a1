import {
  expressionBuilder,
  type CompiledQuery,
  sql,
  type Expression,
  type Selectable,
  type SqlBool,
} from "kysely";
import type { AuditAction, AuditEvent, AuditQuery } from "../proxy-store.ts";
import type { AuditDb, AuditEventsTable, AuditTables } from "./audit-tables.ts";
import type { Spelling } from "./spelling.ts";
import { prepared } from "./precompiled.ts";

/** How an engine reads the events of one registration: its own idiom, chosen in its folder. */
export type RegistrationSearch =
  /**
   * PostgreSQL's partitions by month (postgres/audit-partitions.ts): the newest first is
   * `month DESC, id DESC` (an id carries its month), so PostgreSQL reads the partitions one
   * after another and stops once a page is full; a registration's rows, by their key, each
   * fetch their event from its own partition; the bounds of the search bound the months.
   * Each search's shape is a prepared statement (precompiled.ts's `prepared`).
   */
  | "by-month"
  /** The events whose id is among the registration's rows (SQLite's plan for it). */
  | "in";

type Aliased = {
  e: AuditTables["audit_events"];
  r: AuditTables["audit_registrations"];
};
const eb = expressionBuilder<Aliased, "e" | "r">();

/** An event as both engines return it, its JSON read as the engine spells it. */
const toAuditEvent =
  (readJson: Spelling["readJson"]) =>
  (row: Selectable<AuditEventsTable>): AuditEvent => ({
    id: row.id,
    at: row.at,
    userId: row.user_id,
    userEmail: row.user_email,
    action: row.action,
    registrations: readJson(row.registrations) as string[],
    outcome: row.outcome,
    requestId: row.request_id,
    clientAddress: row.client_address,
    ...(row.correlation_id !== null && { correlationId: row.correlation_id }),
    ...(row.detail !== null && {
      detail: readJson(row.detail) as AuditEvent["detail"],
    }),
    ...(row.aggregate_key !== null && {
      count: row.attempts,
      lastAt: row.last_at ?? row.at,
    }),
  });

/** The search's conditions on the event; `id` is the column the page is ordered by. */
function conditions(
  query: AuditQuery,
  id: "e.id" | "r.event_id",
): Expression<SqlBool>[] {
  const where: Expression<SqlBool>[] = [];
  if (query.userId !== undefined)
    where.push(eb("e.user_id", "=", query.userId));
  if (query.userEmail !== undefined)
    where.push(eb("e.user_email", "=", query.userEmail));
  if (query.from !== undefined) where.push(eb("e.at", ">=", query.from));
  if (query.to !== undefined) where.push(eb("e.at", "<", query.to));
  // A pattern, not an action: written into the text, as the engines' own queries did.
  const checks = sql.lit("check.%" as AuditAction);
  if (query.checksOnly) where.push(eb("e.action", "like", checks));
  if (query.before !== undefined) where.push(eb(id, "<", query.before));
  return where;
}

/**
 * The admin's search, its CSV pages and each person's recent checks: one query text for both
 * engines but for how a registration's events are found (`RegistrationSearch`). Newest first.
 */
export function searchAudit(
  db: AuditDb,
  registrationSearch: RegistrationSearch,
  readJson: Spelling["readJson"],
) {
  const toEvent = toAuditEvent(readJson);
  return async (query: AuditQuery): Promise<AuditEvent[]> => {
    const { registration, limit } = query;
    if (registrationSearch === "by-month")
      return (await byMonth(db, query)).map(toEvent);
    const where = conditions(query, "e.id");
    const rows = await db
      .selectFrom("audit_events as e")
      .selectAll("e")
      .$if(registration !== undefined, (events) =>
        events.where(
          "e.id",
          "in",
          db
            .selectFrom("audit_registrations")
            .select("event_id")
            .where("registration", "=", registration!),
        ),
      )
      .$if(where.length > 0, (events) => events.where(eb.and(where)))
      .orderBy("e.id", "desc")
      .limit(limit)
      .execute();
    return rows.map(toEvent);
  };
}

/** Ids carry their month above 40 bits (postgres/audit-partitions.ts). */
const ID_MONTH_SHIFT = 40;

/** The months a search can reach, from its bounds: PostgreSQL then plans only their partitions. */
function monthBounds(query: AuditQuery, month: "e.month" | "r.month") {
  const column = sql.ref(month);
  const bounds: Expression<SqlBool>[] = [];
  if (query.from !== undefined)
    bounds.push(sql<SqlBool>`${column} >= audit_month(${query.from})`);
  if (query.to !== undefined)
    bounds.push(sql<SqlBool>`${column} <= audit_month(${query.to - 1})`);
  if (query.before !== undefined)
    bounds.push(
      sql<SqlBool>`${column} <= (${query.before}::bigint >> ${sql.lit(ID_MONTH_SHIFT)})`,
    );
  return bounds;
}

/**
 * An event's columns by name, not `*`: a prepared statement's answer keeps its shape when a
 * later release adds a column (PostgreSQL refuses to run a cached plan whose result changed).
 */
const EVENT_COLUMNS = [
  "e.id",
  "e.at",
  "e.user_id",
  "e.user_email",
  "e.action",
  "e.registrations",
  "e.outcome",
  "e.request_id",
  "e.client_address",
  "e.detail",
  "e.correlation_id",
  "e.aggregate_key",
  "e.attempts",
  "e.last_at",
] as const;

/** PostgreSQL's search over the partitions, newest first (`RegistrationSearch`). */
async function byMonth(db: AuditDb, query: AuditQuery) {
  // Planning every partition would be most of a search's time: each shape is planned once.
  const run = async <Row>(compiled: CompiledQuery<Row>) =>
    (await db.executeQuery(prepared(compiled))).rows;
  const { registration, limit } = query;
  if (registration === undefined) {
    const where = [
      ...conditions(query, "e.id"),
      ...monthBounds(query, "e.month"),
    ];
    return run(
      db
        .selectFrom("audit_events as e")
        .select(EVENT_COLUMNS)
        .$if(where.length > 0, (events) => events.where(eb.and(where)))
        .orderBy(sql.ref("e.month"), "desc")
        .orderBy("e.id", "desc")
        .limit(limit)
        .compile(),
    );
  }
  // Each of the registration's rows, newest first, fetches its event from its own partition
  // (OFFSET 0 keeps the lateral query a loop that stops with the page, not one big join).
  const { before, ...onEvent } = query;
  return run(
    db
      .selectFrom("audit_registrations as r")
      .innerJoinLateral(
        (lateral) =>
          lateral
            .selectFrom("audit_events as e")
            .select(EVENT_COLUMNS)
            .where(sql<SqlBool>`e.month = r.month`)
            .whereRef("e.id", "=", "r.event_id")
            .where(eb.and(conditions(onEvent, "e.id")))
            .offset(0)
            .as("e"),
        (join) => join.onTrue(),
      )
      .select(EVENT_COLUMNS)
      .where("r.registration", "=", registration)
      .where(
        eb.and([
          ...(before === undefined ? [] : [eb("r.event_id", "<", before)]),
          ...monthBounds(query, "r.month"),
        ]),
      )
      .orderBy(sql.ref("r.month"), "desc")
      .orderBy("r.event_id", "desc")
      .limit(limit)
      .compile(),
  );
}
