import {
  addDays,
  RECENT_CHECK_VERDICTS,
  type RecentCheckVerdict,
  AUDIT_CSV_CUT_OFF,
  AUDIT_PAGE_SIZE,
  AUTH_PATHS,
  CSV_MEDIA_TYPE,
  normaliseRegistration,
  toCsv,
  ukMidnight,
  type AuditEventAnswer,
} from "@vics/shared";
import { malformedRequest } from "@vics/server-kit/problem-error";
import type { Context, Hono } from "hono";
import { requireRole } from "../auth/session-middleware.ts";
import { countAttempt, recordAudit } from "./audit-log.ts";
import { NOT_AN_EMAIL, auditedEmail } from "./sign-in-audit.ts";
import type { AppEnv } from "../http/app-env.ts";
import type {
  AuditEvent,
  AuditQuery,
  ProxyStore,
} from "../store/proxy-store.ts";

/** The CSV download holds at most this many events: narrow the search for more. */
export const CSV_MAX_EVENTS = 100_000;

export const auditAnswer = ({
  lastAt,
  ...event
}: AuditEvent): AuditEventAnswer => ({
  ...event,
  registrations: [...event.registrations],
  at: new Date(event.at).toISOString(),
  ...(lastAt !== undefined && { lastAt: new Date(lastAt).toISOString() }),
});

/** The search of the audit page and its CSV, from the query string. */
async function auditQuery(
  c: Context<AppEnv>,
  store: ProxyStore,
  limit: number,
): Promise<AuditQuery | "no such user"> {
  const query: AuditQuery = { limit };
  const user = c.req.query("user")?.trim();
  if (user) {
    const found = user.includes("@")
      ? await store.findUserByEmail(user)
      : await store.findUserById(user);
    // An email with no account: the events that name it (failed sign-ins), as they kept it.
    const email = user.includes("@") ? auditedEmail(user) : NOT_AN_EMAIL;
    if (found) query.userId = found.id;
    else if (email !== NOT_AN_EMAIL) query.userEmail = email;
    else return "no such user";
  }
  const registration = c.req.query("registration")?.trim();
  if (registration) query.registration = normaliseRegistration(registration);
  const day = (name: "from" | "to") => {
    const text = c.req.query(name)?.trim();
    if (!text) return undefined;
    const start = ukMidnight(text);
    if (start === undefined)
      throw malformedRequest(`${name}: use a date such as 2026-11-24`);
    return start;
  };
  query.from = day("from");
  // "to" is the last day searched, whole: up to the midnight that ends it.
  const to = c.req.query("to")?.trim();
  if (to) {
    day("to");
    query.to = ukMidnight(addDays(to, 1));
  }
  const before = c.req.query("before");
  if (before) {
    // An id on PostgreSQL carries its month above 40 bits (16 digits from 2045): any safe integer.
    if (!/^\d{1,16}$/.test(before) || !Number.isSafeInteger(Number(before)))
      throw malformedRequest("before: use the `next` of the previous page");
    query.before = Number(before);
  }
  return query;
}

const isVerdict = (value: unknown): value is RecentCheckVerdict =>
  (RECENT_CHECK_VERDICTS as readonly unknown[]).includes(value);

/** The search's filters as typed, for the audit of who read the log. */
function searchWords(c: Context<AppEnv>): Record<string, string> {
  const words: Record<string, string> = {};
  for (const name of ["user", "registration", "from", "to"]) {
    const value = c.req.query(name)?.trim();
    if (value) words[name] = value.slice(0, 320);
  }
  return words;
}

/**
 * /api/admin/audit (pages of 50, newest first) and its CSV download; admins only. Reading the
 * log is itself audited: a search read again (a page refreshed, the next page) is counted in
 * one event per admin, search and window; each download is an event of its own.
 */
export function registerAuditRoutes(
  app: Hono<AppEnv>,
  store: ProxyStore,
  options: { now?: () => number; csvMaxEvents?: number } = {},
): void {
  const now = options.now ?? Date.now;
  const csvMaxEvents = options.csvMaxEvents ?? CSV_MAX_EVENTS;
  app.use(`${AUTH_PATHS.audit}*`, requireRole("admin"));

  app.get(AUTH_PATHS.audit, async (c) => {
    const limitText = c.req.query("limit");
    const limit = Math.min(
      Math.max(Number(limitText) || AUDIT_PAGE_SIZE, 1),
      500,
    );
    const query = await auditQuery(c, store, limit + 1);
    const words = searchWords(c);
    await countAttempt(store, c, now(), {
      action: "audit.read",
      outcome: "ok",
      by: `${c.get("user")!.id} ${JSON.stringify(words)}`,
      detail: words,
    });
    if (query === "no such user") return c.json({ events: [], next: null });
    const events = await store.searchAudit(query);
    const page = events.slice(0, limit);
    return c.json({
      events: page.map(auditAnswer),
      next: events.length > limit ? page.at(-1)!.id : null,
    });
  });

  app.get(AUTH_PATHS.auditCsv, async (c) => {
    // One more than the file holds: whether the search found more is known, and said.
    const query = await auditQuery(c, store, csvMaxEvents + 1);
    const found =
      query === "no such user" ? [] : await store.searchAudit(query);
    const events = found.slice(0, csvMaxEvents);
    const cutOff = found.length > events.length;
    await recordAudit(store, c, now(), {
      action: "audit.export",
      outcome: "ok",
      detail: {
        ...searchWords(c),
        events: events.length,
        ...(cutOff && { cutOff }),
      },
    });
    const table = [
      [
        "Time (UTC)",
        "User",
        "Action",
        "Registrations",
        "Outcome",
        "Request id",
        "Correlation id",
        "Client address",
        "Detail",
        "Attempts",
        "Last attempt (UTC)",
      ],
      ...events.map((event) => [
        new Date(event.at).toISOString(),
        event.userEmail ?? "",
        event.action,
        event.registrations.join(" "),
        event.outcome,
        event.requestId ?? "",
        event.correlationId ?? "",
        event.clientAddress ?? "",
        event.detail ? JSON.stringify(event.detail) : "",
        String(event.count ?? 1),
        new Date(event.lastAt ?? event.at).toISOString(),
      ]),
      ...(cutOff
        ? [
            [
              `${AUDIT_CSV_CUT_OFF} this file holds the newest ${csvMaxEvents} events of more that this search found. Narrow the dates or the filters to download the rest.`,
            ],
          ]
        : []),
    ];
    return c.body(toCsv(table), 200, {
      "Content-Type": CSV_MEDIA_TYPE,
      "Content-Disposition": `attachment; filename="vics-audit.csv"`,
      "Cache-Control": "no-store",
    });
  });

  app.get(AUTH_PATHS.recentChecks, requireRole("staff"), async (c) => {
    const events = await store.searchAudit({
      userId: c.get("user")!.id,
      limit: 200,
    });
    const checks = events
      .filter((event) => event.action.startsWith("check."))
      .slice(0, 20)
      .map((event) => ({
        at: new Date(event.at).toISOString(),
        action: event.action,
        registrations: [...event.registrations],
        outcome: event.outcome,
        ...(isVerdict(event.detail?.verdict) && {
          verdict: event.detail.verdict,
        }),
        ...(typeof event.detail?.date === "string" && {
          date: event.detail.date,
        }),
      }));
    return c.json({ checks });
  });
}
