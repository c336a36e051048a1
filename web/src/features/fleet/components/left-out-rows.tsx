// "Leave out a row of your list": any row, valid or not, can be excluded by its number (a sold
// vehicle, a trailer). It is not removed: it stays in the results and the download as
// "Excluded", so they account for every line of the user's list, and it can be included again.
import { useId, useRef, useState, type FormEvent } from "react";
import { formatRegistration } from "@vics/shared";
import type { FleetRow } from "../lib/fleet-types.ts";
import { excludeRow } from "../lib/parse/prepare-rows.ts";
import { rowInSentence, rowName } from "../lib/row-words.ts";
import { count } from "../../../lib/count.ts";

interface LeftOutRowsProps {
  rows: FleetRow[];
  onRows: (rows: FleetRow[]) => void;
}

const shown = (row: FleetRow) =>
  row.registration ? formatRegistration(row.registration) : row.submitted;

/** Why a typed row number cannot be left out, or the row's index when it can. */
function rowToLeaveOut(rows: FleetRow[], typed: string): number | string {
  const own = rows.filter((row) => !row.added);
  const first = own.reduce((low, row) => Math.min(low, row.line), Infinity);
  const last = own.reduce((high, row) => Math.max(high, row.line), 0);
  if (!/^\d+$/.test(typed.trim()))
    return `Enter the number of a row in your list, like ${count(first)}.`;
  const line = Number(typed.trim());
  const index = rows.findIndex((row) => row.line === line);
  const row = rows[index];
  if (!row)
    return `There is no ${rowInSentence(line)} in your list. Its rows are numbered ${count(first)} to ${count(last)}.`;
  if (row.added)
    return `${rowName(line)} is a vehicle you added. Remove it under "Vehicles you added".`;
  if (row.excluded) return `${rowName(line)} is already left out.`;
  return index;
}

export function LeftOutRows({ rows, onRows }: LeftOutRowsProps) {
  const id = useId();
  const fieldId = `${id}-row`;
  const [text, setText] = useState("");
  const [error, setError] = useState<string>();
  const [status, setStatus] = useState("");
  const field = useRef<HTMLInputElement>(null);
  // Excluded rows with an invalid registration are listed, ticked, with the rows to fix.
  const listed = rows.filter((row) => row.excluded && !row.invalid);

  function setExcluded(row: FleetRow, excluded: boolean) {
    onRows(
      rows.map((other) => (other === row ? excludeRow(row, excluded) : other)),
    );
    setStatus(
      excluded
        ? `${rowName(row.line)}, ${shown(row)}, left out. It is not checked, and appears in the results as excluded.`
        : `${rowName(row.line)}, ${shown(row)}, included again.`,
    );
    field.current?.focus();
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = rowToLeaveOut(rows, text);
    const row = typeof found === "number" ? rows[found] : undefined;
    if (typeof found === "string" || !row) {
      setError(typeof found === "string" ? found : undefined);
      return;
    }
    setError(undefined);
    setText("");
    setExcluded(row, true);
  }

  return (
    <>
      <p
        className="visually-hidden"
        role="status"
        data-testid="left-out-status"
      >
        {status}
      </p>
      {listed.length > 0 && (
        <section aria-labelledby={`${id}-heading`}>
          <h3 id={`${id}-heading`} className="heading-s">
            Rows you left out
          </h3>
          <ul className="added-rows__list">
            {listed.map((row) => (
              <li key={row.line}>
                <strong>{rowName(row.line)}:</strong> {shown(row)}{" "}
                <button
                  type="button"
                  className="link-button"
                  onClick={() => setExcluded(row, false)}
                >
                  Include again
                  <span className="visually-hidden">
                    {" "}
                    {rowInSentence(row.line)}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      <form
        className={`form-group${error ? " form-group--error" : ""}`}
        noValidate
        onSubmit={submit}
      >
        <label className="label" htmlFor={fieldId}>
          Leave out a row of your list
        </label>
        <div id={`${fieldId}-hint`} className="hint">
          Its row number. The row is not checked, and appears in the results and
          the download as excluded.
        </div>
        {error && (
          <p id={`${fieldId}-error`} className="error-message">
            <span className="visually-hidden">Error:</span> {error}
          </p>
        )}
        <input
          ref={field}
          id={fieldId}
          className={`input input--width-5${error ? " input--error" : ""}`}
          inputMode="numeric"
          value={text}
          onChange={(event) => setText(event.target.value)}
          aria-describedby={
            error ? `${fieldId}-hint ${fieldId}-error` : `${fieldId}-hint`
          }
          aria-invalid={error ? true : undefined}
          autoComplete="off"
        />{" "}
        <button type="submit" className="button button--secondary">
          Leave out row
        </button>
      </form>
    </>
  );
}
