// What a fleet's page shows of its vehicles: a filter (needing action, or one status), each with
// how many vehicles it would show, and a search over the registrations and the team's columns.
import { watchedFilters, type WatchedFilter } from "../lib/watched-view.ts";
import { SearchField, ShowSelect } from "../../../components/list-controls.tsx";
import { count } from "../../../lib/count.ts";

interface WatchedFiltersProps {
  filter: WatchedFilter;
  onFilter: (filter: WatchedFilter) => void;
  search: string;
  onSearch: (search: string) => void;
  counts: Record<WatchedFilter, number>;
  /** A check of the fleet is under way: the vehicles never checked are "Checking now". */
  checking: boolean;
}

export function WatchedFilters({
  filter,
  onFilter,
  search,
  onSearch,
  counts,
  checking,
}: WatchedFiltersProps) {
  return (
    <div className="saved-fleet__controls">
      <ShowSelect value={filter} onChange={onFilter}>
        {watchedFilters(checking).map(([value, words]) => (
          <option key={value} value={value}>
            {words} ({count(counts[value])})
          </option>
        ))}
      </ShowSelect>
      <SearchField
        value={search}
        onChange={onSearch}
        hint="A registration, or anything in your columns"
      />
    </div>
  );
}
