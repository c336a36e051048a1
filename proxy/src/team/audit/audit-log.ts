import type { Context } from "hono";
import type { AppEnv } from "../http/app-env.ts";
import { clientAddress } from "../http/client-address.ts";
import type { AuditAction, AuditStore, User } from "../store/proxy-store.ts";

export interface AuditFields {
  action: AuditAction;
  outcome: string;
  registrations?: readonly string[];
  /** Who; default the signed-in user. An attempt names the email that was tried. */
  user?: Pick<User, "id" | "email"> | { id: null; email: string } | null;
  detail?: Record<string, string | number | boolean | null>;
  /** The key of the event this attempt is counted in (countAttempt). */
  aggregate?: string;
}

/**
 * Appends one audit event for this request and resolves once it is committed: an answer
 * that needs its event is sent only after this.
 */
export function recordAudit(
  store: AuditStore,
  c: Context<AppEnv>,
  now: number,
  fields: AuditFields,
): Promise<unknown> {
  const user =
    fields.user === undefined ? (c.get("user") ?? null) : fields.user;
  // The store's own promise, not another wrapped around it: one per check is enough.
  return store.appendAudit({
    at: now,
    userId: user?.id ?? null,
    userEmail: user?.email ?? null,
    action: fields.action,
    registrations: fields.registrations ?? [],
    outcome: fields.outcome,
    requestId: c.get("requestId"),
    correlationId: c.get("correlationId") ?? null,
    clientAddress: clientAddress(c),
    ...(fields.detail && { detail: fields.detail }),
    ...(fields.aggregate !== undefined && { aggregate: fields.aggregate }),
  });
}

/** How long one aggregated event gathers the attempts of its key. */
export const AUDIT_WINDOW_MS = 15 * 60_000;

/**
 * Counts an attempt that a flood could repeat without end (a throttled sign-in, a refusal) in
 * one event per `by` (an address, a user), action and outcome, and window of AUDIT_WINDOW_MS:
 * the first attempt is written, the others add one to its count. A flood leaves a bounded
 * number of rows, and the log still says how many attempts there were and when.
 */
export function countAttempt(
  store: AuditStore,
  c: Context<AppEnv>,
  now: number,
  fields: Omit<AuditFields, "aggregate" | "registrations"> & { by: string },
): Promise<unknown> {
  const { by, ...rest } = fields;
  const window = Math.floor(now / AUDIT_WINDOW_MS);
  return recordAudit(store, c, now, {
    ...rest,
    aggregate: [fields.action, fields.outcome, by, window].join(" "),
  });
}

/** Records "ok" events of a route's changes: `(c, action, detail, registrations?)`, at `now()`. */
export function okAudit(store: AuditStore, now: () => number) {
  return (
    c: Context<AppEnv>,
    action: AuditAction,
    detail: NonNullable<AuditFields["detail"]>,
    registrations: readonly string[] = [],
  ) =>
    recordAudit(store, c, now(), {
      action,
      outcome: "ok",
      registrations,
      detail,
    });
}
