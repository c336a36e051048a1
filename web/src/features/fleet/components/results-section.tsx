// The run's answers: the summary, the filters and search, the download, and the table, with the
// vehicles that need action first.
import { useDeferredValue, useId, useMemo, useState } from "react";
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
  type SortOrder,
} from "../lib/results-sort.ts";
import { summariseRun } from "../lib/run-summary.ts";
import type { RunView } from "../lib/use-run.ts";
import { ExportControls } from "./export-controls.tsx";
import { ResultsControls } from "./results-controls.tsx";
import { ResultsTable } from "./results-table.tsx";
import { RunSummaryView } from "./run-summary-view.tsx";

const count = (value: number) => value.toLocaleString("en-GB");

export function ResultsSection({ view }: { view: RunView }) {
  const id = useId();
  const { run, results, resultsVersion } = view;
  const today = ukToday(useNow());
  const [filter, setFilter] = useState<OutcomeFilter>("all");
  const [search, setSearch] = useState("");
  const [sort, setSort] = useState<SortOrder>(DEFAULT_SORT);
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
      ? `Showing all ${count(entries.length)} rows${sort === DEFAULT_SORT ? ", those needing action first" : ""}.`
      : `Showing ${count(shown.length)} of ${count(entries.length)} rows.`;
  const askedFor = `${filter}|${deferredSearch}`;
  const [announced, setAnnounced] = useState({ askedFor, text: "" });
  if (announced.askedFor !== askedFor)
    setAnnounced({ askedFor, text: caption });

  function sortBy(column: SortColumn) {
    setSort((current) =>
      sameColumn(current.column, column)
        ? {
            column,
            direction:
              current.direction === "ascending" ? "descending" : "ascending",
          }
        : { column, direction: "ascending" },
    );
  }

  function show(next: OutcomeFilter) {
    setFilter(next);
    setSearch("");
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
          onFilter={setFilter}
          search={search}
          onSearch={setSearch}
          checkCompliance={run.checkCompliance}
        />
        <p id={`${id}-caption`}>{caption}</p>
        {/* Read out when the user filters or searches, not as each answer arrives. */}
        <p className="visually-hidden" role="status">
          {announced.text}
        </p>
        {shown.length > 0 ? (
          <ResultsTable
            entries={shown}
            extraColumns={run.extraColumns}
            checkCompliance={run.checkCompliance}
            sort={sort}
            onSort={sortBy}
            captionId={`${id}-caption`}
            today={today}
          />
        ) : (
          <p>No rows match. Choose another filter or clear the search.</p>
        )}
      </section>
    </>
  );
}
