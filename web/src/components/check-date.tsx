// "Check on a date": after an incident, staff ask whether the vehicle was insured on the day.
// The date is in the address (?date=), so a dated answer can be shared and printed like any.
import { useId, useState, type FormEvent } from "react";
import { formatDate } from "../lib/dates.ts";

interface CheckDateProps {
  /** The date asked ("YYYY-MM-DD"), or undefined for today. */
  date?: string;
  /** The UK's date today: no later date can be asked. */
  today: string;
  /** What was wrong with the date in the address, if anything. */
  error?: string;
  /** A new date, or undefined to go back to today. */
  onChoose: (date: string | undefined) => void;
}

export function CheckDate({ date, today, error, onChoose }: CheckDateProps) {
  const inputId = `${useId()}-date`;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const [typedError, setTypedError] = useState<string>();
  const shownError = typedError ?? error;

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = new FormData(event.currentTarget).get("date");
    if (typeof value !== "string" || value === "") {
      setTypedError("Enter the date to check, such as 8 June 2026.");
      return;
    }
    if (value > today) {
      setTypedError(
        `The date must be today, ${formatDate(today)}, or a day before it.`,
      );
      return;
    }
    setTypedError(undefined);
    onChoose(value);
  }

  return (
    <details className="check-date" open={date !== undefined || undefined}>
      <summary className="check-date__summary">Check on a date</summary>
      <form className="check-date__form" noValidate onSubmit={handleSubmit}>
        <div className={`form-group${shownError ? " form-group--error" : ""}`}>
          <label className="label" htmlFor={inputId}>
            Date, for example of an incident
          </label>
          <div id={hintId} className="hint">
            VICS answers from what it knows now, including policies and
            cancellations that insurers reported after that day.
          </div>
          {shownError && (
            <p id={errorId} className="error-message">
              <span className="visually-hidden">Error:</span> {shownError}
            </p>
          )}
          <input
            className={`input input--date${shownError ? " input--error" : ""}`}
            type="date"
            id={inputId}
            name="date"
            max={today}
            defaultValue={date}
            key={date ?? "today"}
            aria-describedby={shownError ? `${hintId} ${errorId}` : hintId}
            aria-invalid={shownError ? true : undefined}
          />
        </div>
        <div className="check-date__actions">
          <button className="button button--secondary" type="submit">
            Check on this date
          </button>
          {date !== undefined && (
            <button
              className="link-button"
              type="button"
              onClick={() => onChoose(undefined)}
            >
              Check today instead
            </button>
          )}
        </div>
      </form>
    </details>
  );
}
