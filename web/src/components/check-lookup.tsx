// Shows one check for a valid registration: loading, the error panel or the view's answer, with
// the tab title, a screen-reader announcement, a recent-check entry, and focus kept in place.
import { useEffect, useRef, type ReactNode } from "react";
import type { UseQueryResult } from "@tanstack/react-query";
import { formatRegistration } from "@vics/shared";
import { isApiError } from "../lib/api-error.ts";
import { addRecentCheck, type RecentCheckKind } from "../lib/recent-checks.ts";
import { DocumentTitle } from "./document-title.tsx";
import { ErrorPanel } from "./error-panel.tsx";
import { LoadingMessage } from "./loading-message.tsx";

interface CheckLookupProps<T> {
  registration: string;
  kind: RecentCheckKind;
  /** The view's name, last in the tab title: "Insurance check". */
  title: string;
  query: UseQueryResult<T>;
  /** The answer in words, for the tab title and recent checks: "Insured". */
  outcome: (record: T) => string;
  /** What a screen reader hears when the answer arrives. */
  announcement: (record: T, display: string) => string;
  /** The view's answer. */
  children: (record: T) => ReactNode;
}

export function CheckLookup<T>({
  registration,
  kind,
  title,
  query,
  outcome,
  announcement,
  children,
}: CheckLookupProps<T>) {
  const { data, dataUpdatedAt, error, isError, isFetching } = query;
  const display = formatRegistration(registration);
  const words = data === undefined ? undefined : outcome(data);
  const phase = isError ? "error" : words === undefined ? "pending" : "answer";
  const region = useRef<HTMLDivElement>(null);
  const focusInside = useRef(false);

  useEffect(() => {
    if (words === undefined) return;
    const checkedAt = new Date(dataUpdatedAt);
    addRecentCheck({ registration, kind, outcome: words, checkedAt });
  }, [registration, kind, words, dataUpdatedAt]);

  useEffect(() => {
    if (isApiError(error) && error.code === "VEHICLE_NOT_FOUND")
      addRecentCheck({ registration, kind, outcome: "No vehicle found" });
  }, [registration, kind, error]);

  // The control just used (Try again, a "Did you mean" link, Check again) may have gone with
  // the old content: keep keyboard users here rather than back at the top of the page.
  useEffect(() => {
    const active = document.activeElement;
    const lost = active === null || active === document.body;
    if (lost && focusInside.current) region.current?.focus();
  }, [registration, phase]);

  let pageTitle = `Checking ${display}`;
  let status = `Checking ${display}…`;
  if (isError) {
    pageTitle = `Error: ${display}`;
    status = ""; // the error panel is an alert of its own
  } else if (data !== undefined && isFetching) {
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
        {query.isPending && (
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
        {data !== undefined && !isError && children(data)}
      </div>
    </>
  );
}
