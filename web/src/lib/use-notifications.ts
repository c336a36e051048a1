// The signed-in fleet user's in-app notifications (watched fleets' alerts), for the header's
// count and the notifications page; refreshed every minute while the app is open.
import { queryOptions, useQuery } from "@tanstack/react-query";
import {
  hasRole,
  NOTIFICATION_PATHS,
  type NotificationKind,
  type Role,
} from "@vics/shared";
import { apiGet } from "./api-client.ts";
import { notificationsSchema, unreadCountSchema } from "./lazy-schemas.ts";

export const NOTIFICATIONS_REFRESH_MS = 60_000;

/** Every notifications query's key starts with it, so marking read refreshes them all. */
export const NOTIFICATIONS_KEY = ["notifications"] as const;

/** The navigation's count: under NOTIFICATIONS_KEY, so marking read refreshes it too. */
export const UNREAD_COUNT_KEY = [...NOTIFICATIONS_KEY, "unread"] as const;

/** Which page of the notifications, of which fleet and kind (all, when absent). */
export interface NotificationsView {
  /** From 1. */
  page: number;
  fleet?: string;
  kind?: NotificationKind;
}

/** The view as a query ("?page=2&fleet=…", or "" for the first page of all): the page's address
 * and GET /api/notifications both say it so. */
export function notificationsSearch(view: NotificationsView): string {
  const query = new URLSearchParams();
  if (view.page > 1) query.set("page", String(view.page));
  if (view.fleet) query.set("fleet", view.fleet);
  if (view.kind) query.set("kind", view.kind);
  const search = query.toString();
  return search ? `?${search}` : "";
}

export function notificationsQueryOptions(view: NotificationsView) {
  return queryOptions({
    queryKey: [...NOTIFICATIONS_KEY, "list", view],
    queryFn: async ({ signal, client }) => {
      const answer = await apiGet(
        `${NOTIFICATION_PATHS.list}${notificationsSearch(view)}`,
        notificationsSchema,
        { signal },
      );
      // The list brings the count with it: the navigation's badge takes it at once, not at
      // its next minute.
      client.setQueryData(UNREAD_COUNT_KEY, { unread: answer.unread });
      return answer;
    },
    refetchInterval: NOTIFICATIONS_REFRESH_MS,
    // The proxy answers from its own store, spending no plan: fresh whenever a page asks.
    staleTime: 0,
  });
}

/**
 * How many are unread (the count alone: the navigation asks every minute); undefined for a
 * role without notifications, or before the answer. Under NOTIFICATIONS_KEY, so marking them
 * read refreshes it too.
 */
export function useUnreadNotifications(role: Role): number | undefined {
  const query = useQuery({
    queryKey: UNREAD_COUNT_KEY,
    queryFn: ({ signal }) =>
      apiGet(NOTIFICATION_PATHS.unread, unreadCountSchema, { signal }),
    refetchInterval: NOTIFICATIONS_REFRESH_MS,
    staleTime: 0,
    enabled: hasRole(role, "fleet"),
  });
  return query.data?.unread;
}
