// What a fleet's page shows of its vehicles: a filter (needing action, or one status), each with
// how many vehicles it would show, and a search over the registrations and the team's columns.
import { useId } from "react";
import { WATCHED_FILTERS, type WatchedFilter } from "../lib/watched-view.ts";

interface WatchedFiltersProps {
  filter: WatchedFilter;
  onFilter: (filter: WatchedFilter) => void;
  search: string;
  onSearch: (search: string) => void;
  counts: Record<WatchedFilter, number>;
}

const count = (value: number) => value.toLocaleString("en-GB");

export function WatchedFilters({
  filter,
  onFilter,
  search,
  onSearch,
  counts,
}: WatchedFiltersProps) {
  const id = useId();
  return (
    <div className="saved-fleet__controls">
      <div className="form-group">
        <label className="label" htmlFor={`${id}-filter`}>
          Show
        </label>
        <select
          id={`${id}-filter`}
          className="select"
          value={filter}
          onChange={(event) => onFilter(event.target.value as WatchedFilter)}
        >
          {WATCHED_FILTERS.map(([value, words]) => (
            <option key={value} value={value}>
              {words} ({count(counts[value])})
            </option>
          ))}
        </select>
      </div>
      <div className="form-group">
        <label className="label" htmlFor={`${id}-search`}>
          Search
        </label>
        <div id={`${id}-search-hint`} className="hint">
          A registration, or anything in your columns
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
    </div>
  );
}
