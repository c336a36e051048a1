// The results, one line per row of the user's list, virtualised so 100,000 rows scroll
// smoothly: only the rows in view are in the page, with spacer rows keeping the scrollbar
// true, and aria-rowcount / aria-rowindex telling a screen reader where it is.
import { useRef } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import type { ResultRow } from "../lib/results-view.ts";
import {
  sameColumn,
  type SortColumn,
  type SortOrder,
} from "../lib/results-sort.ts";
import { resultColumns } from "./result-columns.tsx";
import { ResultLine } from "./result-line.tsx";

const ROW_HEIGHT = 48;

interface ResultsTableProps {
  entries: readonly ResultRow[];
  extraColumns: readonly string[];
  checkCompliance: boolean;
  sort: SortOrder;
  onSort: (column: SortColumn) => void;
  captionId: string;
  /** The UK's date, for "ends in N days". */
  today: string;
}

export function ResultsTable({
  entries,
  extraColumns,
  checkCompliance,
  sort,
  onSort,
  captionId,
  today,
}: ResultsTableProps) {
  const scroller = useRef<HTMLDivElement>(null);
  // TanStack Virtual returns new functions each render, which the React Compiler cannot
  // memoise; this app does not use the compiler.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const columns = resultColumns(extraColumns, checkCompliance, today);
  const before = items[0]?.start ?? 0;
  const after = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);

  return (
    // Focusable, so the rows can be scrolled with the keyboard (WCAG 2.1.1, axe's
    // scrollable-region-focusable); a named region, so a screen reader says what it is.
    <div
      ref={scroller}
      className="results-table"
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
      tabIndex={0}
      role="region"
      aria-labelledby={captionId}
    >
      <table aria-rowcount={entries.length + 1}>
        <thead>
          <tr aria-rowindex={1}>
            {columns.map((column) => {
              const sorted =
                column.sort !== undefined &&
                sameColumn(column.sort, sort.column);
              return (
                <th
                  key={column.key}
                  scope="col"
                  aria-sort={sorted ? sort.direction : undefined}
                  className={column.className}
                >
                  {column.sort === undefined ? (
                    column.label
                  ) : (
                    <button
                      type="button"
                      className="results-table__sort"
                      onClick={() => column.sort && onSort(column.sort)}
                    >
                      {column.label}
                      <span className="visually-hidden">
                        {sorted
                          ? `, sorted ${sort.direction}`
                          : ", select to sort"}
                      </span>
                    </button>
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {before > 0 && (
            <tr aria-hidden="true" style={{ height: before }}>
              <td colSpan={columns.length} />
            </tr>
          )}
          {items.map((item) => {
            const entry = entries[item.index];
            return entry ? (
              <ResultLine
                key={entry.position}
                entry={entry}
                columns={columns}
                rowIndex={item.index + 2}
                height={ROW_HEIGHT}
                index={item.index}
                measure={virtualizer.measureElement}
              />
            ) : null;
          })}
          {after > 0 && (
            <tr aria-hidden="true" style={{ height: after }}>
              <td colSpan={columns.length} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
