// "/notifications": what the re-checks of the team's watched fleets found, newest first, a page
// at a time, of one fleet or kind or all (kept in the address: ?page=&fleet=&kind=). A sweep's
// alerts of one kind in one fleet are one row that opens to its vehicles; a fleet's first check
// is one row that sums it up; the unread ones are marked, and each can be marked read, or all
// that the fleet and kind chosen list.
import { useId, useState } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Link, useSearchParams } from "react-router";
import {
  formatRegistration,
  isApiError,
  NOTIFICATION_KINDS,
  type NotificationKind,
  type NotificationRow,
} from "@vics/shared";
import { BusyButton } from "../../../components/busy-button.tsx";
import { DocumentTitle } from "../../../components/document-title.tsx";
import { ErrorPanel } from "../../../components/error-panel.tsx";
import { LoadingMessage } from "../../../components/loading-message.tsx";
import { formatDateTime } from "../../../lib/dates.ts";
import {
  notificationsQueryOptions,
  notificationsSearch,
  type NotificationsView,
} from "../../../lib/use-notifications.ts";
import { useMarkReadMutation } from "../api/mark-read-api.ts";
import { savedFleetsQueryOptions } from "../api/saved-fleets-api.ts";
import { alertWords } from "../lib/alert-words.ts";
import { fleetPaths } from "../lib/fleet-paths.ts";
import {
  firstCheckWords,
  NOTIFICATION_KIND_LABELS,
  sweepRowWords,
} from "../lib/notification-words.ts";
import { LiveMessage } from "../../../components/live-message.tsx";
import "../saved-fleets.css";
import { count } from "../../../lib/count.ts";

/** The view the address asks for: a page from 1, a fleet, a kind. */
function readView(params: URLSearchParams): NotificationsView {
  const page = Number(params.get("page"));
  const kind = params.get("kind");
  return {
    page: Number.isInteger(page) && page > 1 ? page : 1,
    fleet: params.get("fleet") || undefined,
    kind: NOTIFICATION_KINDS.includes(kind as NotificationKind)
      ? (kind as NotificationKind)
      : undefined,
  };
}

/** What marking a row read sends. */
function readBody(row: NotificationRow) {
  if (row.type === "first-check") return { firstCheck: row.id };
  if (row.runId === null) return { ids: row.alerts.map((a) => a.alert.id) };
  return {
    group: { runId: row.runId, fleetId: row.fleet.id, kind: row.kind },
  };
}

const isUnread = (row: NotificationRow) =>
  row.type === "first-check" ? !row.read : row.unread > 0;

function rowKey(row: NotificationRow): string {
  if (row.type === "first-check") return `first-check-${row.id}`;
  return row.runId === null
    ? `alert-${row.alerts[0]?.alert.id}`
    : `sweep-${row.runId}-${row.fleet.id}-${row.kind}`;
}

function RowWords({ row }: { row: NotificationRow }) {
  if (row.type === "first-check")
    return (
      <>
        <Link to={fleetPaths.savedFleet(row.fleet.id)}>
          {firstCheckWords(row)}
        </Link>
        . <span className="notifications__when">{formatDateTime(row.at)}</span>
      </>
    );
  const [only] = row.alerts;
  if (row.count === 1 && only)
    return (
      <>
        <Link to={fleetPaths.watchedVehicle(only.alert.registration)}>
          {formatRegistration(only.alert.registration)}
        </Link>{" "}
        in {row.fleet.name}: {alertWords(only.alert)}.{" "}
        <span className="notifications__when">
          {formatDateTime(only.alert.openedAt)}
          {only.alert.closedAt ? ", since resolved" : ""}
        </span>
      </>
    );
  const more = row.count - row.alerts.length;
  return (
    <details className="notifications__group">
      <summary>{sweepRowWords(row)}.</summary>
      <ul className="notifications__vehicles">
        {row.alerts.map(({ alert, read }) => (
          <li key={alert.id}>
            {!read && <span className="visually-hidden">Unread: </span>}
            <Link to={fleetPaths.watchedVehicle(alert.registration)}>
              {formatRegistration(alert.registration)}
            </Link>
            : {alertWords(alert)}
            {alert.closedAt ? ", since resolved" : ""}.
          </li>
        ))}
      </ul>
      {more > 0 && (
        <p>
          And {count(more)} more: the{" "}
          <Link to={fleetPaths.savedFleet(row.fleet.id)}>fleet’s page</Link>{" "}
          lists every vehicle.
        </p>
      )}
    </details>
  );
}

export function NotificationsPage() {
  const id = useId();
  const [searchParams, setSearchParams] = useSearchParams();
  const view = readView(searchParams);
  const notifications = useQuery({
    ...notificationsQueryOptions(view),
    // Another page or filter keeps this one (and the focus) while its answer comes.
    placeholderData: keepPreviousData,
  });
  // The filter's fleets: the saved fleets' list, cached as the fleets page has it.
  const fleets = useQuery(savedFleetsQueryOptions()).data?.fleets ?? [];
  const [failure, setFailure] = useState<string>();
  const marking = useMarkReadMutation({
    onError: (error) =>
      setFailure(
        isApiError(error)
          ? error.detail
          : "VICS could not mark them read. Try again.",
      ),
  });
  /** Which button's marking is under way, if any. */
  const busy = marking.isPending ? marking.variables.key : undefined;

  function choose(next: Partial<NotificationsView>) {
    // Another fleet or kind starts at its first page.
    setSearchParams(notificationsSearch({ ...view, page: 1, ...next }));
  }

  function markRead(key: string, body: object) {
    setFailure(undefined);
    marking.mutate({ key, body });
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
  const { unread, rows, page, pages, total } = notifications.data;
  const filtered = view.fleet !== undefined || view.kind !== undefined;
  return (
    <div>
      <DocumentTitle title="Notifications" />
      <h1 className="heading-l">Notifications</h1>
      <p>
        What the daily re-checks of your team’s{" "}
        <Link to={fleetPaths.savedFleets()}>fleets</Link> found, newest first: a
        sweep’s alerts of one kind in one fleet together, and a fleet’s first
        check summed up.{" "}
        {/* A live region from the start, so that "All read." is read out when marked. */}
        <span role="status">
          {unread === 0 ? "All read." : `${count(unread)} unread.`}
        </span>
      </p>
      {unread > 0 && (
        // Filtered, it marks what the filter lists, not the other fleets' and kinds'.
        <BusyButton
          busy={busy === "all"}
          busyLabel="Marking…"
          secondary
          onClick={() =>
            markRead("all", { fleet: view.fleet, kind: view.kind })
          }
        >
          {filtered ? "Mark these as read" : "Mark all as read"}
        </BusyButton>
      )}
      <LiveMessage alert className="error-message">
        {failure}
      </LiveMessage>
      <div className="saved-fleet__controls">
        <div className="form-group">
          <label className="label" htmlFor={`${id}-fleet`}>
            Fleet
          </label>
          <select
            id={`${id}-fleet`}
            className="select"
            value={view.fleet ?? ""}
            onChange={(event) =>
              choose({ fleet: event.target.value || undefined })
            }
          >
            <option value="">All fleets</option>
            {fleets.map((fleet) => (
              <option key={fleet.id} value={fleet.id}>
                {fleet.name}
              </option>
            ))}
          </select>
        </div>
        <div className="form-group">
          <label className="label" htmlFor={`${id}-kind`}>
            Kind
          </label>
          <select
            id={`${id}-kind`}
            className="select"
            value={view.kind ?? ""}
            onChange={(event) =>
              choose({
                kind: (event.target.value || undefined) as
                  NotificationKind | undefined,
              })
            }
          >
            <option value="">All kinds</option>
            {NOTIFICATION_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {NOTIFICATION_KIND_LABELS[kind]}
              </option>
            ))}
          </select>
        </div>
      </div>
      {rows.length === 0 ? (
        <p>{filtered ? "None of this fleet or kind." : "Nothing yet."}</p>
      ) : (
        <ul className="notifications">
          {rows.map((row) => {
            const key = rowKey(row);
            const unreadRow = isUnread(row);
            return (
              <li
                key={key}
                className={
                  unreadRow
                    ? "notifications__item notifications__item--unread"
                    : "notifications__item"
                }
              >
                {unreadRow && (
                  <span className="tag notifications__new">New</span>
                )}{" "}
                <RowWords row={row} />
                {unreadRow && (
                  <BusyButton
                    busy={busy === key}
                    busyLabel="Marking…"
                    secondary
                    onClick={() => markRead(key, readBody(row))}
                  >
                    Mark read
                  </BusyButton>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {pages > 1 && (
        <nav
          aria-label="Pages of notifications"
          className="notifications__pages"
        >
          {page > 1 && (
            <Link
              to={{ search: notificationsSearch({ ...view, page: page - 1 }) }}
            >
              Newer
            </Link>
          )}{" "}
          <span>
            Page {count(page)} of {count(pages)} ({count(total)}{" "}
            {total === 1 ? "row" : "rows"})
          </span>{" "}
          {page < pages && (
            <Link
              to={{ search: notificationsSearch({ ...view, page: page + 1 }) }}
            >
              Older
            </Link>
          )}
        </nav>
      )}
    </div>
  );
}
