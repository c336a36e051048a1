// One row of the results table: the user's row number as the row's header, then its cells.
import type { Ref } from "react";
import type { ResultRow } from "../lib/results-view.ts";
import type { ResultColumn } from "./result-columns.tsx";

interface ResultLineProps {
  entry: ResultRow;
  columns: ResultColumn[];
  rowIndex: number;
  /** The least height: a row whose words wrap grows, and `measure` tells the list so. */
  height: number;
  /** The virtualised list's place for the row, and its measurer. */
  index: number;
  measure: Ref<HTMLTableRowElement>;
}

export function ResultLine({
  entry,
  columns,
  rowIndex,
  height,
  index,
  measure,
}: ResultLineProps) {
  return (
    <tr
      ref={measure}
      data-index={index}
      aria-rowindex={rowIndex}
      style={{ height }}
    >
      {columns.map((column) =>
        column.key === "line" ? (
          <th key={column.key} scope="row" className={column.className}>
            {column.cell(entry)}
          </th>
        ) : (
          <td key={column.key} className={column.className}>
            {column.cell(entry)}
          </td>
        ),
      )}
    </tr>
  );
}
