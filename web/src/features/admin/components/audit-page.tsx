// "/admin/audit" (admins): who checked what and when, and every sign-in and change of a user.
// The filters are the address's search params, so a search can be shared; "Older events"
// follows the proxy's `next`; "Download CSV" gives every event the same filters find.
import { useEffect, useMemo, useRef } from "react";
import { useQuery } from "@tanstack/react-query";
import { Link, useSearchParams } from "react-router";
import { DocumentTitle } from "../../../components/document-title.tsx";
import { LoadingMessage } from "../../../components/loading-message.tsx";
import { auditQueryOptions } from "../api/audit-api.ts";
import {
  filtersFromParams,
  paramsFromFilters,
  type AuditFilters,
} from "../lib/audit-filters.ts";
import { AuditCsvDownload } from "./audit-csv-download.tsx";
import { AuditFiltersForm } from "./audit-filters-form.tsx";
import { AuditTable } from "./audit-table.tsx";
import "../admin.css";
import { LoadProblem } from "./load-problem.tsx";

export function AuditPage() {
  const [params, setParams] = useSearchParams();
  const search = params.toString();
  // One object per address, so the form and the query see a change only when there is one.
  const filters = useMemo(
    () => filtersFromParams(new URLSearchParams(search)),
    [search],
  );
  const audit = useQuery(auditQueryOptions(filters));
  const results = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);

  function go(next: AuditFilters) {
    moved.current = true;
    setParams(paramsFromFilters(next));
  }

  // After a search or a page change, keyboard and screen-reader users start at the results.
  useEffect(() => {
    if (!moved.current || audit.isPlaceholderData || audit.isPending) return;
    moved.current = false;
    results.current?.focus();
  }, [audit.isPlaceholderData, audit.isPending, search]);

  const page = audit.data;
  const newest = filters.before !== undefined;
  return (
    <div className="admin-audit">
      <DocumentTitle title="Audit log" />
      <h1 className="heading-l">Audit log</h1>
      <p className="lead">
        Every check, sign-in and change of a user, with who did it and when.
      </p>
      <AuditFiltersForm
        filters={filters}
        onSearch={go}
        onClear={() => go({})}
      />
      <h2 className="heading-m" ref={results} tabIndex={-1}>
        {newest ? "Older events" : "Events"}
      </h2>
      <AuditCsvDownload filters={filters} />
      {audit.isPending ? (
        <LoadingMessage>Loading events…</LoadingMessage>
      ) : audit.isError && !page ? (
        <LoadProblem
          title="The events cannot be shown"
          error={audit.error}
          retrying={audit.isFetching}
          onRetry={() => void audit.refetch()}
        />
      ) : page && page.events.length === 0 ? (
        <p>No events match these filters.</p>
      ) : page ? (
        <>
          <p className="visually-hidden" role="status">
            {audit.isFetching
              ? "Loading events…"
              : `${page.events.length} events shown.`}
          </p>
          <AuditTable events={page.events} />
          <nav className="audit__pages" aria-label="Audit log pages">
            {newest && (
              <Link
                to={{
                  search: paramsFromFilters({
                    ...filters,
                    before: undefined,
                  }).toString(),
                }}
                onClick={() => {
                  moved.current = true;
                }}
              >
                Newest events
              </Link>
            )}
            {page.next !== null && (
              <Link
                to={{
                  search: paramsFromFilters({
                    ...filters,
                    before: page.next,
                  }).toString(),
                }}
                onClick={() => {
                  moved.current = true;
                }}
              >
                Older events
              </Link>
            )}
          </nav>
        </>
      ) : null}
    </div>
  );
}
