// What to show in the results: an outcome filter and a search box (and, on a phone, the sort).
import type { ReactNode } from "react";
import { COMPLIANCE_FILTERS } from "../lib/results-params.ts";
import type { OutcomeFilter } from "../lib/results-view.ts";
import { OUTCOME_LABELS, OUTCOME_ORDER } from "@vics/fleet";
import { SearchField, ShowSelect } from "../../../components/list-controls.tsx";

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
  return (
    <div className="results-controls">
      <ShowSelect value={filter} onChange={onFilter}>
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
      </ShowSelect>
      <SearchField
        value={search}
        onChange={onSearch}
        hint="A registration, an insurer, a make, or anything in your other columns"
      />
      {children}
    </div>
  );
}
