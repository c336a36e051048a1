// The GOV.UK registration text input and submit button, validated with the shared parser. The
// page owns the error, so its error summary and tab title can say so too.
import { useRef, useState, type FormEvent } from "react";
import {
  formatRegistration,
  lookalikeRegistrations,
  parseRegistration,
} from "@vics/shared";

interface RegistrationFormProps {
  /** The input's id, for the label and the error summary's link. */
  inputId: string;
  /** The button's words, e.g. "Check insurance". */
  submitLabel: string;
  /** Called with the normalised registration ("AB12CDE"), only when it is valid. */
  onSubmit: (registration: string) => void;
  /** Called with the reason when what was submitted is not a valid registration. */
  onInvalid: (message: string) => void;
  defaultValue?: string;
  /** The message to show on the field, if it is in error. */
  error?: string;
  label?: string;
}

// Wide enough for "AB12 CDE" with room to spare. It grows with the input: an
// upper-case W is nearly twice as wide as the "0" that a `ch` measures.
const MIN_WIDTH_CH = 12;
const CH_PER_CHARACTER = 1.8;

function inputWidth(value: string): string {
  return `${Math.max(MIN_WIDTH_CH, Math.ceil(value.length * CH_PER_CHARACTER) + 2)}ch`;
}

export function RegistrationForm({
  inputId,
  submitLabel,
  onSubmit,
  onInvalid,
  defaultValue = "",
  error,
  label = "Registration number",
}: RegistrationFormProps) {
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const inputRef = useRef<HTMLInputElement>(null);
  const [value, setValue] = useState(defaultValue);

  // A new registration arrived from outside (a link, the back button): show it.
  const [shown, setShown] = useState(defaultValue);
  if (shown !== defaultValue) {
    setShown(defaultValue);
    setValue(defaultValue);
  }

  // A mistyped plate such as "AB1O CDE" is invalid, but one O/0 or I/1 swap away from a valid
  // one: offer it rather than only the format rule.
  const suggestions = error ? lookalikeRegistrations(value, 3) : [];

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = parseRegistration(value);
    if (parsed.ok) onSubmit(parsed.registration);
    else onInvalid(parsed.message);
  }

  return (
    <form className="registration-form" noValidate onSubmit={handleSubmit}>
      <div className={`form-group${error ? " form-group--error" : ""}`}>
        <label className="label" htmlFor={inputId}>
          {label}
        </label>
        <div id={hintId} className="hint">
          For example, AB12 CDE
        </div>
        {error && (
          <p id={errorId} className="error-message">
            <span className="visually-hidden">Error:</span> {error}
          </p>
        )}
        {suggestions.length > 0 && (
          <div className="lookalikes">
            <p className="lookalikes__question">Did you mean:</p>
            <ul className="lookalikes__list">
              {suggestions.map((suggestion) => (
                <li key={suggestion}>
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => {
                      // This button goes with the error: keep focus in the form.
                      inputRef.current?.focus();
                      setValue(formatRegistration(suggestion));
                      onSubmit(suggestion);
                    }}
                  >
                    {formatRegistration(suggestion)}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        )}
        <input
          ref={inputRef}
          id={inputId}
          name="registration"
          type="text"
          className={`input input--registration${error ? " input--error" : ""}`}
          style={{ width: inputWidth(value) }}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          aria-describedby={error ? `${hintId} ${errorId}` : hintId}
          aria-invalid={error ? true : undefined}
          spellCheck={false}
          autoComplete="off"
          autoCapitalize="characters"
          autoCorrect="off"
        />
      </div>
      <button type="submit" className="button">
        {submitLabel}
      </button>
    </form>
  );
}
