// The alert rule's email addresses: a box of one a line, with its hint and error read with it.
import { ALERT_RULE_MAX_EMAILS } from "@vics/shared";

interface EmailAddressesFieldProps {
  id: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
}

export function EmailAddressesField({
  id,
  value,
  onChange,
  error,
}: EmailAddressesFieldProps) {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className={`form-group${error ? " form-group--error" : ""}`}>
      <label className="label" htmlFor={id}>
        Email addresses
      </label>
      <div id={hintId} className="hint">
        One a line, up to {ALERT_RULE_MAX_EMAILS}. Alerts that need someone now
        are emailed at once; the rest wait for the daily digest, one email a
        day.
      </div>
      {error && (
        <p id={errorId} className="error-message">
          <span className="visually-hidden">Error:</span> {error}
        </p>
      )}
      <textarea
        id={id}
        className={`textarea alert-rule__emails${error ? " input--error" : ""}`}
        rows={4}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-describedby={error ? `${hintId} ${errorId}` : hintId}
        aria-invalid={error ? true : undefined}
        spellCheck={false}
        autoCapitalize="none"
        autoComplete="off"
      />
    </div>
  );
}
