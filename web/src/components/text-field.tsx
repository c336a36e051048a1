// A GOV.UK text input with its label, hint and error message, for the forms of sign-in,
// accounts, users and the audit log. The page owns the error, so its error summary can link to
// the field by its id.
import type { HTMLInputTypeAttribute } from "react";

interface TextFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  hint?: string;
  error?: string;
  type?: HTMLInputTypeAttribute;
  autoComplete?: string;
  /** A narrower box where the answer is short (a date, a registration). */
  width?: "full" | "medium" | "short";
  spellCheck?: boolean;
}

export function TextField({
  id,
  label,
  value,
  onChange,
  hint,
  error,
  type = "text",
  autoComplete,
  width = "full",
  spellCheck,
}: TextFieldProps) {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy =
    [hint && hintId, error && errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`form-group${error ? " form-group--error" : ""}`}>
      <label className="label" htmlFor={id}>
        {label}
      </label>
      {hint && (
        <div id={hintId} className="hint">
          {hint}
        </div>
      )}
      {error && (
        <p id={errorId} className="error-message">
          <span className="visually-hidden">Error:</span> {error}
        </p>
      )}
      <input
        id={id}
        name={id}
        type={type}
        className={`input input--${width}${error ? " input--error" : ""}`}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-describedby={describedBy}
        aria-invalid={error ? true : undefined}
        autoComplete={autoComplete}
        spellCheck={spellCheck}
      />
    </div>
  );
}
