// Totals and notes found under an uploaded list, and left out: said, with their row numbers, so
// the user knows why "Total;48" is neither checked nor listed as a bad registration.
import type { SourceTable } from "../lib/fleet-types.ts";
import { rowName } from "../lib/row-words.ts";
import { count } from "../../../lib/count.ts";

export function RowsBelow({ table }: { table: SourceTable }) {
  const rows = table.skippedBelow ?? [];
  if (rows.length === 0) return null;
  return (
    <div className="inset-note">
      <p>
        {rows.length === 1
          ? "Left out 1 row under the list: it is a total or a note, not a vehicle."
          : `Left out ${count(rows.length)} rows under the list: they are totals or notes, not vehicles.`}{" "}
        If one is a vehicle, put its registration in the registration column and
        upload the file again.
      </p>
      <ul className="skipped-rows">
        {rows.map((row) => (
          <li key={row.line}>
            {rowName(row.line)}: {row.text}
          </li>
        ))}
      </ul>
    </div>
  );
}
