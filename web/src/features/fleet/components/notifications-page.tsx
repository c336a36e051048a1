// "/notifications": the alerts of the team's watched vehicles, newest first, the unread ones
// marked, each in words with its date and a link to the vehicle's timeline.
import { useEffect, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "react-router";
import {
  formatRegistration,
  isApiError,
  NOTIFICATION_PATHS,
  UnreadCountSchema,
} from "@vics/shared";
import { BusyButton } from "../../../components/busy-button.tsx";
import { DocumentTitle } from "../../../components/document-title.tsx";
import { ErrorPanel } from "../../../components/error-panel.tsx";
import { LoadingMessage } from "../../../components/loading-message.tsx";
import { apiPost } from "../../../lib/api-client.ts";
import { formatDateTime } from "../../../lib/dates.ts";
import {
  notificationsQueryOptions,
  UNREAD_COUNT_KEY,
} from "../../../lib/use-notifications.ts";
import { alertWords } from "../lib/alert-words.ts";
import { fleetPaths } from "../lib/fleet-paths.ts";
import { LiveMessage } from "../../../components/live-message.tsx";
import "../saved-fleets.css";

export function NotificationsPage() {
  const queryClient = useQueryClient();
  const notifications = useQuery(notificationsQueryOptions());
  // The list brings the count with it: the navigation's badge takes it at once, not at its
  // next minute.
  const unreadNow = notifications.data?.unread;
  useEffect(() => {
    if (unreadNow !== undefined)
      queryClient.setQueryData(UNREAD_COUNT_KEY, { unread: unreadNow });
  }, [queryClient, unreadNow]);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();

  async function markAllRead() {
    setBusy(true);
    setFailure(undefined);
    try {
      await apiPost(NOTIFICATION_PATHS.read, {}, UnreadCountSchema);
      await queryClient.invalidateQueries({ queryKey: ["notifications"] });
    } catch (error) {
      setFailure(
        isApiError(error)
          ? error.detail
          : "VICS could not mark them read. Try again.",
      );
    } finally {
      setBusy(false);
    }
  }

  if (notifications.isPending)
    return <LoadingMessage>Loading your notifications…</LoadingMessage>;
  if (notifications.isError)
    return (
      <ErrorPanel
        error={notifications.error}
        onRetry={() => void notifications.refetch()}
        retrying={notifications.isFetching}
      />
    );
  const { unread, notifications: list } = notifications.data;
  return (
    <div>
      <DocumentTitle title="Notifications" />
      <h1 className="heading-l">Notifications</h1>
      <p>
        What the daily re-checks of your team’s{" "}
        <Link to={fleetPaths.savedFleets()}>fleets</Link> found, newest first.{" "}
        {/* A live region from the start, so that "All read." is read out when marked. */}
        <span role="status">
          {unread === 0
            ? "All read."
            : `${unread.toLocaleString("en-GB")} unread.`}
        </span>
      </p>
      {unread > 0 && (
        <BusyButton
          busy={busy}
          busyLabel="Marking…"
          secondary
          onClick={() => void markAllRead()}
        >
          Mark all as read
        </BusyButton>
      )}
      <LiveMessage alert className="error-message">
        {failure}
      </LiveMessage>
      {list.length === 0 ? (
        <p>Nothing yet.</p>
      ) : (
        <ul className="notifications">
          {list.map(({ alert, read }) => (
            <li
              key={alert.id}
              className={
                read
                  ? "notifications__item"
                  : "notifications__item notifications__item--unread"
              }
            >
              {!read && <span className="tag notifications__new">New</span>}{" "}
              <Link to={fleetPaths.watchedVehicle(alert.registration)}>
                {formatRegistration(alert.registration)}
              </Link>
              : {alertWords(alert)}.{" "}
              <span className="notifications__when">
                {formatDateTime(alert.openedAt)}
                {alert.closedAt ? ", since resolved" : ""}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
