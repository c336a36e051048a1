import type { Generated, Kysely } from "kysely";
import type { AuditAction } from "../proxy-store.ts";
import type { Database, Db, Json } from "./database.ts";

/** Epoch milliseconds; registrations and detail are JSON (text in SQLite, jsonb or text[] in PostgreSQL). */
export interface AuditEventsTable {
  id: Generated<number>;
  at: number;
  user_id: string | null;
  user_email: string | null;
  action: AuditAction;
  registrations: Json;
  outcome: string;
  request_id: string | null;
  client_address: string | null;
  detail: Json;
  correlation_id: string | null;
  aggregate_key: string | null;
  attempts: Generated<number>;
  last_at: number | null;
}

/** One row per registration of an event: the search by registration reads only its own. */
export interface AuditRegistrationsTable {
  registration: string;
  event_id: number;
}

// A type, not an interface: withTables wants a record type.
export type AuditTables = {
  audit_events: AuditEventsTable;
  audit_registrations: AuditRegistrationsTable;
};

export type AuditDb = Kysely<Database & AuditTables>;

/** The store's Kysely, seeing the audit tables too: they are the audit's alone. */
export const auditDb = (db: Db): AuditDb => db.withTables<AuditTables>();
