// The in-app channel of watched fleets' alerts: each fleet user's notifications, a page of rows
// newest first (a sweep's alerts grouped by fleet and kind, a fleet's first check summed up),
// of one fleet or kind or all, with how many are unread, and marking them read (a row, some
// alerts, or those the page lists with its fleet and kind, each when given).
import { iso } from "../http/iso-time.ts";
import {
  MarkReadSchema,
  NOTIFICATION_GROUP_ALERTS,
  NOTIFICATION_PATHS,
  NOTIFICATIONS_PAGE_SIZE,
  NotificationsQuerySchema,
  type Alert,
  type NotificationRow,
} from "@vics/shared";
import type { Hono } from "hono";
import type { z } from "zod";
import { requireRole } from "../auth/session-middleware.ts";
import type { AppContext, AppEnv } from "../http/app-env.ts";
import {
  bodyRefusal,
  formBody,
  readJsonBody,
} from "../../gateway/http/json-body.ts";
import type { ProxyStore } from "../store/proxy-store.ts";
import type {
  NotificationRow as StoredRow,
  ReadTarget,
  StoredAlert,
} from "../store/watch-store.ts";

export const alertAnswer = (alert: StoredAlert): Alert => ({
  id: alert.id,
  registration: alert.registration,
  kind: alert.kind,
  detail: alert.detail,
  openedAt: iso(alert.openedAt),
  closedAt: alert.closedAt === null ? null : iso(alert.closedAt),
});

const rowAnswer = (row: StoredRow): NotificationRow =>
  row.type === "first-check"
    ? {
        type: "first-check",
        id: row.baseline.id,
        fleet: { id: row.baseline.fleetId, name: row.baseline.fleetName },
        at: iso(row.baseline.at),
        vehicles: row.baseline.vehicles,
        attention: row.baseline.attention,
        read: row.read,
      }
    : {
        type: "alerts",
        runId: row.runId,
        fleet: { id: row.fleetId, name: row.fleetName },
        kind: row.kind,
        at: iso(row.at),
        count: row.count,
        unread: row.unread,
        alerts: row.alerts.map(({ alert, read }) => ({
          alert: alertAnswer(alert),
          read,
        })),
      };

/**
 * What a read marks: alerts, a group row, a summary, or else what the page lists with its
 * filter ("Mark these as read" on a filtered page; everything on an unfiltered one).
 */
function readTarget(body: z.infer<typeof MarkReadSchema>): ReadTarget {
  if (body.ids) return { alerts: body.ids };
  if (body.group) return { group: body.group };
  if (body.firstCheck !== undefined) return { firstCheck: body.firstCheck };
  return { matching: { fleetId: body.fleet, kind: body.kind } };
}

export function notificationsTakeBody(c: AppContext): boolean {
  return c.req.method === "POST" && c.req.path === NOTIFICATION_PATHS.read;
}

export function registerNotificationRoutes(
  app: Hono<AppEnv>,
  store: ProxyStore,
): void {
  const fleet = requireRole("fleet");
  app.get(NOTIFICATION_PATHS.list, fleet, async (c) => {
    const parsed = NotificationsQuerySchema.safeParse(c.req.query());
    if (!parsed.success) throw bodyRefusal(parsed.error.issues);
    const { page, fleet: fleetId, kind } = parsed.data;
    const userId = c.get("user")!.id;
    const [unread, found] = await Promise.all([
      store.unreadCount(userId),
      store.notificationPage({
        userId,
        fleetId,
        kind,
        page: page - 1,
        pageSize: NOTIFICATIONS_PAGE_SIZE,
        groupAlerts: NOTIFICATION_GROUP_ALERTS,
      }),
    ]);
    return c.json({
      unread,
      page,
      pages: Math.max(1, Math.ceil(found.total / NOTIFICATIONS_PAGE_SIZE)),
      total: found.total,
      rows: found.rows.map(rowAnswer),
    });
  });
  app.get(NOTIFICATION_PATHS.unread, fleet, async (c) =>
    c.json({ unread: await store.unreadCount(c.get("user")!.id) }),
  );
  app.post(NOTIFICATION_PATHS.read, fleet, formBody, async (c) => {
    const target = readTarget(await readJsonBody(c, MarkReadSchema));
    const userId = c.get("user")!.id;
    await store.markRead(userId, target);
    return c.json({ unread: await store.unreadCount(userId) });
  });
}
