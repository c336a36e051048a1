// The run's answers: the summary, the filters and search, the download, and the table, with the
// vehicles that need action first.
import { useDeferredValue, useId, useMemo, useState } from "react";
import { useSearchParams } from "react-router";
import { ukToday } from "../../../lib/dates.ts";
import { useNow } from "../../../lib/use-now.ts";
import {
  buildResultRows,
  viewRows,
  type OutcomeFilter,
} from "../lib/results-view.ts";
import {
  DEFAULT_SORT,
  sameColumn,
  type SortColumn,
} from "../lib/results-sort.ts";
import {
  readResultsParams,
  writeResultsParams,
  type ResultsParams,
} from "../lib/results-params.ts";
import { useNarrowScreen } from "../lib/use-narrow-screen.ts";
import { summariseRun } from "../lib/run-summary.ts";
import type { RunView } from "../lib/use-run.ts";
import { ExportControls } from "./export-controls.tsx";
import { ResultCards } from "./result-cards.tsx";
import { ResultsControls } from "./results-controls.tsx";
import { ResultsTable } from "./results-table.tsx";
import { SortChoice } from "./sort-choice.tsx";
import { RunSummaryView } from "./run-summary-view.tsx";
import { count } from "../../../lib/count.ts";

const rows = (value: number) =>
  `${count(value)} ${value === 1 ? "row" : "rows"}`;

export function ResultsSection({ view }: { view: RunView }) {
  const id = useId();
  const { run, results, resultsVersion } = view;
  const today = ukToday(useNow());
  const narrow = useNarrowScreen();
  const [searchParams, setSearchParams] = useSearchParams();
  const {
    filter,
    search: searchInAddress,
    sort,
  } = useMemo(() => readResultsParams(searchParams, run), [searchParams, run]);
  // The box shows what is typed at once; the address follows it. When the address changes
  // otherwise (back, a link), the box takes its search.
  const [search, setSearchText] = useState(searchInAddress);
  const [addressSeen, setAddressSeen] = useState(searchInAddress);
  if (addressSeen !== searchInAddress) {
    setAddressSeen(searchInAddress);
    setSearchText(searchInAddress);
  }

  function choose(next: Partial<ResultsParams>) {
    const state = { filter, search, sort, ...next };
    if (next.search !== undefined) setSearchText(next.search);
    // Replace, not push: Back leaves the results rather than stepping through each choice. The
    // page stays where it is: only a new page scrolls to the top (useScrollRestoration).
    setSearchParams((current) => writeResultsParams(current, state), {
      replace: true,
    });
  }
  const deferredSearch = useDeferredValue(search);

  const entries = useMemo(
    () => buildResultRows(run.rows, results, today),
    // The results map is updated in place; its version says when.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [run.rows, results, resultsVersion, today],
  );
  const summary = useMemo(
    () => summariseRun(entries, run.checkCompliance),
    [entries, run.checkCompliance],
  );
  const shown = useMemo(
    () => viewRows(entries, { filter, search: deferredSearch, sort }),
    [entries, filter, deferredSearch, sort],
  );

  // Memoised: the page re-renders with every progress report, ten times a second in a run.
  const shownRows = useMemo(() => shown.map((entry) => entry.row), [shown]);

  const caption =
    shown.length === entries.length
      ? `Showing ${entries.length === 1 ? "1 row" : `all ${count(entries.length)} rows`}${sort === DEFAULT_SORT ? ", those needing action first" : ""}.`
      : `Showing ${count(shown.length)} of ${rows(entries.length)}.`;
  const askedFor = `${filter}|${deferredSearch}`;
  const [announced, setAnnounced] = useState({ askedFor, text: "" });
  if (announced.askedFor !== askedFor)
    setAnnounced({ askedFor, text: caption });

  function sortBy(column: SortColumn) {
    choose({
      sort:
        sameColumn(sort.column, column) && sort.direction === "ascending"
          ? { column, direction: "descending" }
          : { column, direction: "ascending" },
    });
  }

  function show(next: OutcomeFilter) {
    choose({ filter: next, search: "" });
    // Take the user to the rows they asked for: focus brings the heading into view.
    document.getElementById(`${id}-results`)?.focus();
  }

  return (
    <>
      <RunSummaryView summary={summary} onShow={show} />
      <ExportControls
        run={run}
        results={results}
        shownRows={shownRows}
        today={today}
      />
      <section className="fleet-results" aria-labelledby={`${id}-results`}>
        <h2 id={`${id}-results`} className="heading-m" tabIndex={-1}>
          Results
        </h2>
        <ResultsControls
          filter={filter}
          onFilter={(next) => choose({ filter: next })}
          search={search}
          onSearch={(next) => choose({ search: next })}
          checkCompliance={run.checkCompliance}
        >
          {narrow && (
            <SortChoice
              sort={sort}
              onSort={(next) => choose({ sort: next })}
              extraColumns={run.extraColumns}
              checkCompliance={run.checkCompliance}
            />
          )}
        </ResultsControls>
        <p id={`${id}-caption`}>{caption}</p>
        {/* Read out when the user filters or searches, not as each answer arrives. */}
        <p className="visually-hidden" role="status">
          {announced.text}
        </p>
        {shown.length > 0 ? (
          narrow ? (
            <ResultCards
              entries={shown}
              extraColumns={run.extraColumns}
              checkCompliance={run.checkCompliance}
              captionId={`${id}-caption`}
              today={today}
            />
          ) : (
            <ResultsTable
              entries={shown}
              extraColumns={run.extraColumns}
              checkCompliance={run.checkCompliance}
              sort={sort}
              onSort={sortBy}
              captionId={`${id}-caption`}
              today={today}
            />
          )
        ) : (
          <p>No rows match. Choose another filter or clear the search.</p>
        )}
      </section>
    </>
  );
}
