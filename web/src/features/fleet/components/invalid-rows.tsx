// Rows whose registration is not valid, with their line numbers and reasons: fix one in place
// (or take an O/0, I/1 suggestion), or exclude it. Nothing is dropped: an invalid row that is
// left as it is appears in the results as "Invalid registration"; an excluded one as "Excluded".
import { useState } from "react";
import { formatRegistration } from "@vics/shared";
import type { FleetRow } from "../lib/fleet-types.ts";
import { excludeRow, fixRow } from "../lib/parse/prepare-rows.ts";
import { InvalidRowFix } from "./invalid-row-fix.tsx";

/** Shown at once; more on request, so a list with thousands of bad rows stays usable. */
const PAGE = 50;

interface InvalidRowsProps {
  rows: FleetRow[];
  onRows: (rows: FleetRow[]) => void;
}

const count = (value: number) => value.toLocaleString("en-GB");

export function InvalidRows({ rows, onRows }: InvalidRowsProps) {
  const [shown, setShown] = useState(PAGE);
  // Excluded rows stay listed (ticked), so an exclusion can be undone.
  const listed = rows
    .map((row, index) => ({ row, index }))
    .filter(({ row }) => row.invalid !== undefined);
  if (listed.length === 0) return null;
  const open = listed.filter(({ row }) => !row.excluded);

  function update(index: number, row: FleetRow) {
    const next = rows.slice();
    next[index] = row;
    onRows(next);
  }

  function excludeAll() {
    onRows(rows.map((row) => (row.invalid ? excludeRow(row, true) : row)));
  }

  return (
    <section className="invalid-rows" aria-labelledby="invalid-rows-heading">
      <h3 id="invalid-rows-heading" className="heading-s">
        Rows with an invalid registration ({count(listed.length)})
      </h3>
      <p>
        Correct a registration and select Update, or exclude the row. Rows you
        leave as they are, or exclude, are not checked but still appear in the
        results and the download.
      </p>
      {open.length > 1 && (
        <button
          type="button"
          className="button button--secondary"
          onClick={excludeAll}
        >
          Exclude all {count(open.length)} rows with an invalid registration
        </button>
      )}
      <ul className="invalid-rows__list">
        {listed.slice(0, shown).map(({ row, index }) => (
          <li key={index} className="invalid-rows__item">
            <InvalidRowFix
              row={row}
              onFix={(text) => update(index, fixRow(row, text))}
              onExclude={(excluded) => update(index, excludeRow(row, excluded))}
              suggestionLabel={formatRegistration}
            />
          </li>
        ))}
      </ul>
      {listed.length > shown && (
        <button
          type="button"
          className="link-button"
          onClick={() => setShown((value) => value + PAGE * 4)}
        >
          Show more rows ({count(listed.length - shown)} not shown)
        </button>
      )}
    </section>
  );
}
