// Audit rows as both engines return them: PostgreSQL gives the registrations and detail as
// jsonb, parsed; SQLite gives them as JSON text.
import type { AuditAction, AuditEvent } from "./proxy-store.ts";
import { fromJson } from "./watch-rows.ts";

export interface AuditRow {
  id: number;
  at: number;
  user_id: string | null;
  user_email: string | null;
  action: AuditAction;
  registrations: unknown;
  outcome: string;
  request_id: string | null;
  client_address: string | null;
  detail: unknown;
  correlation_id: string | null;
  aggregate_key: string | null;
  attempts: number;
  last_at: number | null;
}

export const toAuditEvent = (row: AuditRow): AuditEvent => ({
  id: row.id,
  at: row.at,
  userId: row.user_id,
  userEmail: row.user_email,
  action: row.action,
  registrations: fromJson(row.registrations) as string[],
  outcome: row.outcome,
  requestId: row.request_id,
  clientAddress: row.client_address,
  ...(row.correlation_id !== null && { correlationId: row.correlation_id }),
  ...(row.detail !== null && {
    detail: fromJson(row.detail) as AuditEvent["detail"],
  }),
  ...(row.aggregate_key !== null && {
    count: row.attempts,
    lastAt: row.last_at ?? row.at,
  }),
});
