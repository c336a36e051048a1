// The notifications page's steps, the same on both engines: each store supplies only its three
// reads, in its own spelling of notification-sql.ts.
import {
  type GroupAlertRow,
  pageGroups,
  type PageRow,
  toNotificationRows,
} from "./watch-rows.ts";
import type { NotificationQuery, NotificationRow } from "./watch-store.ts";

export interface NotificationPageReads {
  /** The page's rows, each with the filter's total on all pages. */
  rows(limit: number, offset: number): Promise<PageRow[]>;
  /** The newest alerts of the page's groups. */
  groupAlerts(groups: ReturnType<typeof pageGroups>): Promise<GroupAlertRow[]>;
  /** How many rows the filter has: asked only for a page past the last. */
  total(): Promise<number | string | undefined>;
}

export async function notificationPageOf(
  query: NotificationQuery,
  reads: NotificationPageReads,
): Promise<{ rows: NotificationRow[]; total: number }> {
  const offset = query.page * query.pageSize;
  const rows = await reads.rows(query.pageSize, offset);
  const groups = pageGroups(rows);
  const alerts = groups.any ? await reads.groupAlerts(groups) : [];
  // A page past the last has no row to carry the total.
  const total = rows[0]?.total ?? (offset > 0 ? await reads.total() : 0);
  return { rows: toNotificationRows(rows, alerts), total: Number(total ?? 0) };
}
