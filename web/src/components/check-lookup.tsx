// Shows one check for a valid registration: loading, the error panel or the view's answer, with
// the tab title, a screen-reader announcement and a recent-check entry. After a check the
// answer's heading takes focus and comes into view (on a phone it is below the form).
import { useEffect, useRef, type ReactNode } from "react";
import { useQueryClient, type UseQueryResult } from "@tanstack/react-query";
import {
  formatRegistration,
  type RecentCheckVerdict,
  isApiError,
} from "@vics/shared";
import { addRecentCheck, type RecentCheckKind } from "../lib/recent-checks.ts";
import type { FocusRequest } from "./check-page.tsx";
import { DocumentTitle } from "./document-title.tsx";
import { ErrorPanel } from "./error-panel.tsx";
import { LoadingMessage } from "./loading-message.tsx";

interface CheckLookupProps<T> {
  registration: string;
  kind: RecentCheckKind;
  /** The view's name, last in the tab title: "Insurance check". */
  title: string;
  query: UseQueryResult<T>;
  /** The answer in words, for the tab title: "Insured". */
  outcome: (record: T) => string;
  /** What the check found, for recent checks until the proxy's list has it. */
  verdict: (record: T) => RecentCheckVerdict;
  /** What a screen reader hears when the answer arrives. */
  announcement: (record: T, display: string) => string;
  /** The view's answer. */
  children: (record: T) => ReactNode;
  /**
   * Whether the view of the answer has loaded (see lib/lazy-view.ts). Until it has, an answer
   * that is in still shows as loading, so that it appears whole and its heading takes focus.
   */
  ready?: boolean;
  /** The latest submitted check: its answer (or error) takes focus when it is in. */
  focus?: FocusRequest;
  /** The day asked about, for a check on a date (recent checks name it). */
  date?: string;
}

/** Focuses the region's first heading (the answer's, or the error's) and brings it into view. */
function focusAnswer(region: HTMLElement) {
  const heading = region.querySelector<HTMLElement>("h2");
  const target = heading ?? region;
  if (heading) heading.tabIndex = -1;
  target.focus({ preventScroll: true });
  // Scroll only when the answer's top is off screen or low on it, so a desktop page stays put.
  const { top } = region.getBoundingClientRect();
  if (top < 0 || top > window.innerHeight / 2)
    region.scrollIntoView?.({ block: "start" });
}

export function CheckLookup<T>({
  registration,
  kind,
  title,
  query,
  outcome,
  verdict,
  announcement,
  children,
  focus,
  ready = true,
  date,
}: CheckLookupProps<T>) {
  const queryClient = useQueryClient();
  const { data, dataUpdatedAt, error, isError, isFetching } = query;
  const display = formatRegistration(registration);
  const words = data === undefined ? undefined : outcome(data);
  const found = data === undefined ? undefined : verdict(data);
  const phase = isError
    ? "error"
    : words === undefined || !ready
      ? "pending"
      : "answer";
  const region = useRef<HTMLDivElement>(null);
  const focusInside = useRef(false);

  useEffect(() => {
    if (found === undefined) return;
    const checkedAt = new Date(dataUpdatedAt);
    addRecentCheck(queryClient, {
      registration,
      kind,
      verdict: found,
      checkedAt,
      date,
    });
  }, [queryClient, registration, kind, found, dataUpdatedAt, date]);

  useEffect(() => {
    if (isApiError(error) && error.code === "VEHICLE_NOT_FOUND")
      addRecentCheck(queryClient, {
        registration,
        kind,
        verdict: "not-found",
        date,
      });
  }, [queryClient, registration, kind, error, date]);

  // Once the answer to a submitted check is in, it takes focus: one focus per check.
  const focused = useRef(0);
  useEffect(() => {
    if (!focus || focus.registration !== registration) return;
    if (focus.serial === focused.current || phase === "pending") return;
    focused.current = focus.serial;
    if (region.current) focusAnswer(region.current);
  }, [focus, registration, phase]);

  // The control just used (Try again, a "Did you mean" link) may have gone with the old
  // content: keep keyboard users at the new answer rather than back at the top of the page.
  // While the answer is loading the region itself holds focus; then its heading takes it.
  useEffect(() => {
    if (!region.current) return;
    const active = document.activeElement;
    const lost = active === null || active === document.body;
    const waiting = active === region.current && phase !== "pending";
    if ((lost && focusInside.current) || waiting) focusAnswer(region.current);
  }, [registration, phase]);

  let pageTitle = `Checking ${display}`;
  let status = `Checking ${display}…`;
  if (isError) {
    pageTitle = `Error: ${display}`;
    status = ""; // the error panel is an alert of its own
  } else if (phase === "pending") {
    // Checking, or the answer is in and its view is still loading: the announcement waits.
  } else if (isFetching) {
    status = `Checking ${display} again…`;
  } else if (data !== undefined) {
    pageTitle = `${display}: ${words}`;
    status = announcement(data, display);
  }

  return (
    <>
      <DocumentTitle title={`${pageTitle} – ${title}`} />
      {/* Outside the aria-busy region, which would silence it. */}
      <p className="visually-hidden" role="status">
        {status}
      </p>
      <div
        ref={region}
        className="lookup"
        tabIndex={-1}
        aria-busy={isFetching}
        onFocus={() => {
          focusInside.current = true;
        }}
        onBlur={(event) => {
          const next = event.relatedTarget;
          // No next element: the focused one was removed, or the page was clicked.
          if (next !== null && !event.currentTarget.contains(next))
            focusInside.current = false;
        }}
      >
        {(query.isPending || (data !== undefined && !isError && !ready)) && (
          <LoadingMessage>{`Checking ${display}…`}</LoadingMessage>
        )}
        {isError && (
          <ErrorPanel
            error={error}
            onRetry={() => void query.refetch()}
            registration={registration}
            retrying={isFetching}
          />
        )}
        {data !== undefined && !isError && ready && children(data)}
      </div>
    </>
  );
}
