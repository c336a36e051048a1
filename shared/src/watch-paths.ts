// The watched fleets' and notifications' paths, apart from their schemas (watch.ts): a page that
// only asks for its unread count takes these without the zod schemas, which load with the
// first answer that needs them (web/src/lib/lazy-schemas.ts).

export const WATCH_PATHS = {
  status: (fleetId: string, changedSince?: string) =>
    `/api/fleets/${encodeURIComponent(fleetId)}/status${
      changedSince ? `?changedSince=${encodeURIComponent(changedSince)}` : ""
    }`,
  checkNow: (fleetId: string) =>
    `/api/fleets/${encodeURIComponent(fleetId)}/check-now`,
  /**
   * A watched vehicle's timeline. Not under /api/fleets/, whose next segment is a fleet's id:
   * a static segment beside it would cost Hono its RegExpRouter (decision 047).
   */
  vehicle: (registration: string) =>
    `/api/watched-vehicles/${encodeURIComponent(registration)}`,
  vehicleRoute: "/api/watched-vehicles/:registration",
  admin: "/api/admin/watch",
} as const;

/** The in-app channel: the alerts of watched vehicles, read per user. */
export const NOTIFICATION_PATHS = {
  list: "/api/notifications",
  /** Only the count, for the navigation, which asks every minute. */
  unread: "/api/notifications/unread",
  read: "/api/notifications/read",
} as const;
