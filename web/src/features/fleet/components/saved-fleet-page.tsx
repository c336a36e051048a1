// "/fleets/:fleetId": a saved fleet as its re-checks left it: each vehicle's status in words,
// its open alerts with their dates, the team's own columns, vehicles needing action first; the
// filters, search and downloads of the fleet check's results; "changed since" a UK date, with
// what moved; and "Check this fleet now". What is shown is kept in the address (?show=&q=&since=)
// so a link or Back from a vehicle's timeline opens the same vehicles. The table draws 200 rows at
// a time ("Show 200 more"), so a fleet of 100,000 stays usable; the downloads take every vehicle.
import { useDeferredValue, useId, useMemo, useState } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Link, useParams, useSearchParams } from "react-router";
import { isApiError } from "@vics/shared";
import { BusyButton } from "../../../components/busy-button.tsx";
import { DocumentTitle } from "../../../components/document-title.tsx";
import { ErrorPanel } from "../../../components/error-panel.tsx";
import { LoadingMessage } from "../../../components/loading-message.tsx";
import { formatDate, formatDateTime, ukToday } from "../../../lib/dates.ts";
import { useNow } from "../../../lib/use-now.ts";
import {
  fleetStatusQueryOptions,
  savedFleetQueryOptions,
  useCheckFleetNowMutation,
} from "../api/saved-fleets-api.ts";
import { fleetPaths } from "../lib/fleet-paths.ts";
import { WATCHED_ORDER, statusLabel } from "../lib/watched-order.ts";
import {
  readWatchedParams,
  writeWatchedParams,
  type WatchedParams,
} from "../lib/watched-params.ts";
import {
  changedEntries,
  filterCounts,
  viewWatched,
  watchedEntries,
} from "../lib/watched-view.ts";
import { ChangedSinceForm } from "./changed-since-form.tsx";
import { LiveMessage } from "../../../components/live-message.tsx";
import { PAGE_ROWS, ShowMoreRows, shownWords } from "./show-more-rows.tsx";
import { UpdateFleetPanel } from "./update-fleet-panel.tsx";
import { WatchedExportControls } from "./watched-export-controls.tsx";
import { WatchedFilters } from "./watched-filters.tsx";
import { WatchedTable } from "./watched-table.tsx";
import "../saved-fleets.css";
import { count } from "../../../lib/count.ts";

const FOLLOW_EVERY_MS = 3000;

const vehicles = (value: number) =>
  `${count(value)} ${value === 1 ? "vehicle" : "vehicles"}`;
const lowerFirst = (words: string) =>
  words.charAt(0).toLowerCase() + words.slice(1);

/** What the table shows, in words: said again when the user filters, searches or picks a date. */
function caption(
  shown: number,
  base: number,
  whole: number,
  since: string | undefined,
): string {
  if (since === undefined)
    return shown === whole
      ? `Showing ${whole === 1 ? "the 1 vehicle" : `all ${vehicles(whole)}`}, those needing action first.`
      : `Showing ${count(shown)} of ${vehicles(whole)}.`;
  const day = formatDate(since);
  if (base === 0)
    return `No vehicle of the ${count(whole)} changed since ${day}.`;
  const changed = `${vehicles(base)} of ${count(whole)} changed since ${day}`;
  return shown === base
    ? `${changed}: showing ${base === 1 ? "it" : "them all"}, those needing action first.`
    : `${changed}: showing ${count(shown)}.`;
}

export function SavedFleetPage() {
  const id = useId();
  const { fleetId = "" } = useParams();
  const [searchParams, setSearchParams] = useSearchParams();
  const params = useMemo(() => readWatchedParams(searchParams), [searchParams]);
  // The box shows what is typed at once; the address follows it. When the address changes
  // otherwise (Back, a link), the box takes its search.
  const [search, setSearchText] = useState(params.search);
  const [addressSeen, setAddressSeen] = useState(params.search);
  if (addressSeen !== params.search) {
    setAddressSeen(params.search);
    setSearchText(params.search);
  }
  const deferredSearch = useDeferredValue(search);

  function choose(next: Partial<WatchedParams>) {
    const state = { ...params, search, ...next };
    if (next.search !== undefined) setSearchText(next.search);
    // Replace, not push: Back leaves the fleet rather than stepping through each choice. The
    // page stays where it is: only a new page scrolls to the top (useScrollRestoration).
    setSearchParams((current) => writeWatchedParams(current, state), {
      replace: true,
    });
  }

  const fleet = useQuery(savedFleetQueryOptions(fleetId));
  const [checkNote, setCheckNote] = useState<string>();
  // The vehicles of a check started here, until the proxy says it is no longer under way: then
  // the note says it has finished, not "Checking ... now" for good.
  const [awaited, setAwaited] = useState<{ vehicles: number; after: number }>();
  // The answers are fetched as they arrive while the proxy says a check of the fleet is queued or
  // under way (a new fleet's first, above all), and after "Check this fleet now" until it ends.
  const status = useQuery({
    ...fleetStatusQueryOptions(fleetId, params.since),
    // Another date keeps the page (and the date box's focus) while its answer comes.
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.checking || awaited ? FOLLOW_EVERY_MS : false,
  });
  const checkingNow = status.data?.checking === true;
  if (
    awaited !== undefined &&
    status.data &&
    !status.isPlaceholderData &&
    status.dataUpdatedAt >= awaited.after &&
    !status.data.checking
  ) {
    setAwaited(undefined);
    setCheckNote(
      `The check of ${vehicles(awaited.vehicles)} has finished. ${awaited.vehicles === 1 ? "Its answer is" : "Their answers are"} below.`,
    );
  }
  const entries = useMemo(
    () => watchedEntries(status.data?.vehicles ?? [], checkingNow),
    [status.data, checkingNow],
  );
  // The answer for another date (or none) while this date's is on its way.
  const finding = params.since !== undefined && status.isPlaceholderData;
  const base = useMemo(
    () =>
      params.since === undefined || finding ? entries : changedEntries(entries),
    [entries, params.since, finding],
  );
  const counts = useMemo(() => filterCounts(base), [base]);
  const whole = useMemo(() => filterCounts(entries), [entries]);
  const shown = useMemo(
    () => viewWatched(base, { filter: params.filter, search: deferredSearch }),
    [base, params.filter, deferredSearch],
  );

  const words = finding
    ? `Finding the vehicles that changed since ${formatDate(params.since!)}…`
    : caption(shown.length, base.length, entries.length, params.since);
  // Read out when the user filters, searches or picks a date, not as each answer arrives.
  const askedFor = `${params.filter}|${deferredSearch}|${params.since}|${finding}`;
  const [announced, setAnnounced] = useState({ askedFor, text: "" });
  if (announced.askedFor !== askedFor && !status.isPending)
    setAnnounced({ askedFor, text: words });
  // How many rows the table draws, and the first "Show more" drew; another filter, search or
  // date starts again at the first 200.
  const [paging, setPaging] = useState<{
    askedFor: string;
    rows: number;
    firstNew?: number;
  }>({ askedFor, rows: PAGE_ROWS });
  if (paging.askedFor !== askedFor) setPaging({ askedFor, rows: PAGE_ROWS });
  const drawn = useMemo(
    () => shown.slice(0, paging.rows),
    [shown, paging.rows],
  );
  // The UK's date, kept true on a page left open past midnight.
  const today = ukToday(useNow());

  function showMore() {
    const rows = paging.rows + PAGE_ROWS;
    setPaging({ askedFor, rows, firstNew: paging.rows });
    setAnnounced({ askedFor, text: `${shownWords(rows, shown.length)}.` });
  }

  const checkNow = useCheckFleetNowMutation(fleetId, {
    onSuccess: ({ queued, alreadyRunning }) => {
      setCheckNote(
        alreadyRunning
          ? "This fleet is being checked already. Its answers appear here as they arrive."
          : `Checking ${count(queued)} vehicles now. Their answers appear here as they arrive.`,
      );
      // A status read from now on (the refetch that follows cancels one under way) was asked
      // for after the check was queued: when it says the fleet is not being checked, the check
      // is done.
      const after = Date.now();
      setAwaited({ vehicles: queued, after });
    },
    onError: (error) =>
      setCheckNote(
        isApiError(error)
          ? error.detail
          : "VICS could not start the check. Try again.",
      ),
  });

  if (fleet.isPending || status.isPending)
    return <LoadingMessage>Opening the fleet…</LoadingMessage>;
  if (fleet.isError || status.isError)
    return (
      <ErrorPanel
        error={fleet.error ?? status.error}
        onRetry={() => {
          void fleet.refetch();
          void status.refetch();
        }}
      />
    );

  return (
    <div>
      <DocumentTitle title={`${fleet.data.name} – Fleets`} />
      <p className="back-link">
        <Link to={fleetPaths.savedFleets()}>Fleets</Link>
      </p>
      <h1 className="heading-l">
        <span className="heading-caption">Fleet</span> {fleet.data.name}
      </h1>
      <p>
        {fleet.data.vehicleCount.toLocaleString("en-GB")} vehicles, re-checked
        every day. Last changed {formatDateTime(fleet.data.updated.at)}
        {fleet.data.updated.by ? ` by ${fleet.data.updated.by}` : ""}.
      </p>
      <p>
        <Link to={fleetPaths.alertRule(fleetId)}>Alert rule</Link>: which alerts
        are emailed or sent to webhooks, and to whom.
      </p>
      <ul className="saved-fleets__list" aria-label="Vehicles by status">
        {WATCHED_ORDER.filter((key) => whole[key] > 0).map((key) => (
          <li key={key}>
            {count(whole[key])} {lowerFirst(statusLabel(key, checkingNow))}
          </li>
        ))}
      </ul>
      {checkingNow && !checkNote && (
        <p>
          VICS is checking this fleet now. Each vehicle’s answer appears here as
          it arrives.
        </p>
      )}
      <BusyButton
        busy={checkNow.isPending}
        busyLabel="Starting…"
        secondary
        onClick={() => checkNow.mutate()}
      >
        Check this fleet now
      </BusyButton>
      <LiveMessage>{checkNote}</LiveMessage>
      <WatchedExportControls
        fleetName={fleet.data.name}
        columns={fleet.data.columns}
        all={entries}
        shown={shown}
        since={finding ? undefined : params.since}
        today={today}
      />
      <section aria-labelledby={`${id}-vehicles`}>
        <h2 id={`${id}-vehicles`} className="heading-m">
          Vehicles
        </h2>
        <WatchedFilters
          filter={params.filter}
          onFilter={(filter) => choose({ filter })}
          search={search}
          onSearch={(next) => choose({ search: next })}
          counts={counts}
          checking={checkingNow}
        />
        <ChangedSinceForm
          since={params.since}
          onSince={(since) => choose({ since })}
        />
        <p id={`${id}-caption`}>{words}</p>
        <p className="visually-hidden" role="status">
          {announced.text}
        </p>
        {finding ? null : shown.length > 0 ? (
          <>
            <WatchedTable
              entries={drawn}
              columns={fleet.data.columns}
              changes={params.since !== undefined}
              captionId={`${id}-caption`}
              focusRow={paging.firstNew}
            />
            <ShowMoreRows
              shown={drawn.length}
              total={shown.length}
              onMore={showMore}
            />
          </>
        ) : (
          base.length > 0 && (
            <p>No vehicles match. Choose another filter or clear the search.</p>
          )
        )}
      </section>
      <UpdateFleetPanel fleetId={fleetId} />
    </div>
  );
}
