// The in-app channel of watched fleets' alerts: each fleet user's notifications, newest first,
// with how many are unread, and marking them read (one, some, or all).
import { iso } from "../http/iso-time.ts";
import { MarkReadSchema, NOTIFICATION_PATHS, type Alert } from "@vics/shared";
import type { Hono } from "hono";
import { requireRole } from "../auth/session-middleware.ts";
import type { AppContext, AppEnv } from "../http/app-env.ts";
import { formBody, readJsonBody } from "../http/json-body.ts";
import type { ProxyStore } from "../store/proxy-store.ts";
import type { StoredAlert } from "../store/watch-store.ts";

const LIST_SIZE = 50;

export const alertAnswer = (alert: StoredAlert): Alert => ({
  id: alert.id,
  registration: alert.registration,
  kind: alert.kind,
  detail: alert.detail,
  openedAt: iso(alert.openedAt),
  closedAt: alert.closedAt === null ? null : iso(alert.closedAt),
});

export function notificationsTakeBody(c: AppContext): boolean {
  return c.req.method === "POST" && c.req.path === NOTIFICATION_PATHS.read;
}

export function registerNotificationRoutes(
  app: Hono<AppEnv>,
  store: ProxyStore,
): void {
  const fleet = requireRole("fleet");
  app.get(NOTIFICATION_PATHS.list, fleet, async (c) => {
    const userId = c.get("user")!.id;
    const [unread, notifications] = await Promise.all([
      store.unreadCount(userId),
      store.notifications(userId, LIST_SIZE),
    ]);
    return c.json({
      unread,
      notifications: notifications.map(({ alert, read }) => ({
        alert: alertAnswer(alert),
        read,
      })),
    });
  });
  app.get(NOTIFICATION_PATHS.unread, fleet, async (c) =>
    c.json({ unread: await store.unreadCount(c.get("user")!.id) }),
  );
  app.post(NOTIFICATION_PATHS.read, fleet, formBody, async (c) => {
    const { ids } = await readJsonBody(c, MarkReadSchema);
    const userId = c.get("user")!.id;
    await store.markRead(userId, ids ?? "all");
    return c.json({ unread: await store.unreadCount(userId) });
  });
}
