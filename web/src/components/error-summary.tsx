// The GOV.UK error summary: "There is a problem", with a link to each field in error. It takes
// focus when it appears and again after every failed attempt, so keyboard and screen-reader
// users meet it first; a link puts them in the field.
import { useEffect, useId, useRef, type MouseEvent } from "react";

export interface FieldError {
  /** The id of the input in error. */
  fieldId: string;
  message: string;
}

interface ErrorSummaryProps {
  errors: FieldError[];
  /** Changes with every failed attempt, so the summary takes focus again. */
  attempt: number;
}

function focusField(event: MouseEvent<HTMLAnchorElement>, fieldId: string) {
  // Not a hash change: that would go through the router's history.
  event.preventDefault();
  const field = document.getElementById(fieldId);
  if (!field) return;
  field.focus({ preventScroll: true });
  // As GOV.UK does: bring the field's label into view with it.
  const label = document.querySelector(`label[for="${CSS.escape(fieldId)}"]`);
  (label ?? field).scrollIntoView?.({ block: "start" });
}

export function ErrorSummary({ errors, attempt }: ErrorSummaryProps) {
  const titleId = useId();
  const summary = useRef<HTMLDivElement>(null);

  useEffect(() => {
    summary.current?.focus();
  }, [attempt]);

  return (
    <div
      ref={summary}
      className="error-summary"
      tabIndex={-1}
      aria-labelledby={titleId}
    >
      <div role="alert">
        <h2 id={titleId} className="error-summary__title">
          There is a problem
        </h2>
        <ul className="error-summary__list">
          {errors.map((error) => (
            <li key={error.fieldId}>
              <a
                href={`#${error.fieldId}`}
                onClick={(event) => focusField(event, error.fieldId)}
              >
                {error.message}
              </a>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
