// "Add a vehicle" at "Check your list": a registration typed in is checked like the list's rows
// (with the O/0, I/1 lookalikes to take), numbered after the list's last row and marked as
// added; an added vehicle can be removed again. Rows of the user's own list are excluded, never
// removed, so the results account for every line of it
// (docs/decisions/025-fleet-review-step.md).
import { useId, useRef, useState, type FormEvent } from "react";
import { formatRegistration } from "@vics/shared";
import type { FleetRow } from "../lib/fleet-types.ts";
import { addedRow } from "../lib/parse/prepare-rows.ts";
import { rowInSentence, rowName } from "../lib/row-words.ts";

interface AddedRowsProps {
  rows: FleetRow[];
  extraColumns: number;
  onRows: (rows: FleetRow[]) => void;
}

interface AddError {
  message: string;
  suggestions: string[];
}

export function AddedRows({ rows, extraColumns, onRows }: AddedRowsProps) {
  const id = useId();
  const [text, setText] = useState("");
  const [error, setError] = useState<AddError>();
  const [status, setStatus] = useState("");
  const field = useRef<HTMLInputElement>(null);
  const added = rows.filter((row) => row.added);

  function add(typed: string) {
    const row = addedRow(rows, typed, extraColumns);
    const registration = row.registration;
    if (!registration) {
      setError({
        message: row.invalid?.reason ?? "Enter a registration",
        suggestions: row.invalid?.suggestions ?? [],
      });
      field.current?.focus();
      return;
    }
    const already = rows.find(
      (other) => !other.excluded && other.registration === registration,
    );
    if (already) {
      setError({
        message: `${formatRegistration(registration)} is already in your list, in ${rowInSentence(already.line)}. Each vehicle is checked once.`,
        suggestions: [],
      });
      field.current?.focus();
      return;
    }
    onRows([...rows, row]);
    setError(undefined);
    setText("");
    setStatus(
      `Added ${formatRegistration(registration)} as ${rowInSentence(row.line)}.`,
    );
    field.current?.focus();
  }

  function remove(row: FleetRow) {
    onRows(rows.filter((other) => other !== row));
    setStatus(
      `Removed ${rowInSentence(row.line)}, ${formatRegistration(row.registration ?? row.submitted)}.`,
    );
    field.current?.focus();
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    add(text);
  }

  const fieldId = `${id}-add`;
  return (
    <>
      <p
        className="visually-hidden"
        role="status"
        data-testid="added-rows-status"
      >
        {status}
      </p>
      {added.length > 0 && (
        <section className="added-rows" aria-labelledby={`${id}-heading`}>
          <h3 id={`${id}-heading`} className="heading-s">
            Vehicles you added
          </h3>
          <ul className="added-rows__list">
            {added.map((row) => (
              <li key={row.line}>
                <strong>{rowName(row.line)} (added):</strong>{" "}
                {formatRegistration(row.registration ?? row.submitted)}{" "}
                <button
                  type="button"
                  className="link-button"
                  onClick={() => remove(row)}
                >
                  Remove
                  <span className="visually-hidden">
                    {" "}
                    {rowInSentence(row.line)},{" "}
                    {formatRegistration(row.registration ?? row.submitted)}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      <form
        className={`added-rows__form form-group${error ? " form-group--error" : ""}`}
        noValidate
        onSubmit={submit}
      >
        <label className="label" htmlFor={fieldId}>
          Add a vehicle to check
        </label>
        <div id={`${fieldId}-hint`} className="hint">
          A registration that is not in your list. It is checked with the rest
          and shown as added in this list.
        </div>
        {error && (
          <p id={`${fieldId}-error`} className="error-message">
            <span className="visually-hidden">Error:</span> {error.message}
          </p>
        )}
        <input
          ref={field}
          id={fieldId}
          className={`input input--registration${error ? " input--error" : ""}`}
          value={text}
          onChange={(event) => setText(event.target.value)}
          aria-describedby={
            error ? `${fieldId}-hint ${fieldId}-error` : `${fieldId}-hint`
          }
          aria-invalid={error ? true : undefined}
          spellCheck={false}
          autoComplete="off"
          autoCapitalize="characters"
        />{" "}
        <button type="submit" className="button button--secondary">
          Add vehicle
        </button>
        {error?.suggestions.map((suggestion) => (
          <button
            key={suggestion}
            type="button"
            className="link-button invalid-row__suggestion"
            onClick={() => add(suggestion)}
          >
            Add {formatRegistration(suggestion)}
          </button>
        ))}
      </form>
    </>
  );
}
