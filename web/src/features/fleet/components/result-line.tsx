// One row of the results table: the user's row number as the row's header, then its cells.
import type { ResultRow } from "../lib/results-view.ts";
import type { ResultColumn } from "./result-columns.tsx";

interface ResultLineProps {
  entry: ResultRow;
  columns: ResultColumn[];
  rowIndex: number;
  height: number;
}

export function ResultLine({
  entry,
  columns,
  rowIndex,
  height,
}: ResultLineProps) {
  return (
    <tr aria-rowindex={rowIndex} style={{ height }}>
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
