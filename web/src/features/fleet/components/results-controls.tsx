// What to show in the results: an outcome filter and a search box (and, on a phone, the sort).
import { useId, type ReactNode } from "react";
import { COMPLIANCE_FILTERS } from "../lib/results-params.ts";
import type { OutcomeFilter } from "../lib/results-view.ts";
import { OUTCOME_LABELS, OUTCOME_ORDER } from "@vics/fleet";

interface ResultsControlsProps {
  filter: OutcomeFilter;
  onFilter: (filter: OutcomeFilter) => void;
  search: string;
  onSearch: (search: string) => void;
  checkCompliance: boolean;
  /** More choices beside these (the sort, on a narrow screen). */
  children?: ReactNode;
}

export function ResultsControls({
  filter,
  onFilter,
  search,
  onSearch,
  checkCompliance,
  children,
}: ResultsControlsProps) {
  const id = useId();
  return (
    <div className="results-controls">
      <div className="form-group">
        <label className="label" htmlFor={`${id}-filter`}>
          Show
        </label>
        <select
          id={`${id}-filter`}
          className="select"
          value={filter}
          onChange={(event) => onFilter(event.target.value as OutcomeFilter)}
        >
          <option value="all">All rows</option>
          <option value="needs-action">Rows that need action</option>
          {OUTCOME_ORDER.map((outcome) => (
            <option key={outcome} value={outcome}>
              {OUTCOME_LABELS[outcome]}
            </option>
          ))}
          {checkCompliance &&
            COMPLIANCE_FILTERS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
        </select>
      </div>
      <div className="form-group">
        <label className="label" htmlFor={`${id}-search`}>
          Search
        </label>
        <div id={`${id}-search-hint`} className="hint">
          A registration, an insurer, a make, or anything in your other columns
        </div>
        <input
          id={`${id}-search`}
          type="search"
          className="input"
          value={search}
          onChange={(event) => onSearch(event.target.value)}
          aria-describedby={`${id}-search-hint`}
          autoComplete="off"
          spellCheck={false}
        />
      </div>
      {children}
    </div>
  );
}
