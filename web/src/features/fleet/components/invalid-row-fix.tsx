// One invalid row: its line, what was written and why it is not valid, a field to correct it,
// the valid O/0, I/1 lookalikes as one-click fixes, and "Exclude this row".
import { useId, useState, type FormEvent, type Ref } from "react";
import type { FleetRow } from "../lib/fleet-types.ts";
import { rowInSentence, rowName } from "../lib/row-words.ts";

interface InvalidRowFixProps {
  row: FleetRow;
  /** The correction field, for focus to come back to after a change elsewhere. */
  fieldRef?: Ref<HTMLInputElement>;
  onFix: (text: string) => void;
  onExclude: (excluded: boolean) => void;
  suggestionLabel: (registration: string) => string;
}

export function InvalidRowFix({
  row,
  fieldRef,
  onFix,
  onExclude,
  suggestionLabel,
}: InvalidRowFixProps) {
  const id = useId();
  const [text, setText] = useState(row.edited ?? row.submitted);
  const line = rowInSentence(row.line);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onFix(text);
  }

  return (
    <form className="invalid-row" noValidate onSubmit={submit}>
      <p className="invalid-row__what">
        <strong>{rowName(row.line)}:</strong>{" "}
        {row.submitted ? <code>{row.submitted}</code> : "(blank)"}
        {row.edited !== undefined && (
          <>
            {" "}
            (you changed it to{" "}
            {row.edited ? <code>{row.edited}</code> : "nothing"})
          </>
        )}
        . <span className="invalid-row__reason">{row.invalid?.reason}</span>
      </p>
      {!row.excluded && (
        <div className="invalid-row__fix">
          <label className="visually-hidden" htmlFor={`${id}-fix`}>
            Registration for {line}
          </label>
          <input
            ref={fieldRef}
            id={`${id}-fix`}
            className="input input--registration"
            value={text}
            onChange={(event) => setText(event.target.value)}
            spellCheck={false}
            autoComplete="off"
            autoCapitalize="characters"
          />
          <button type="submit" className="button button--secondary">
            Update<span className="visually-hidden"> {line}</span>
          </button>
          {row.invalid?.suggestions.map((suggestion) => (
            <button
              key={suggestion}
              type="button"
              className="link-button invalid-row__suggestion"
              onClick={() => onFix(suggestion)}
            >
              Use {suggestionLabel(suggestion)}
              <span className="visually-hidden"> for {line}</span>
            </button>
          ))}
        </div>
      )}
      <div className="checkbox checkbox--small">
        <input
          id={`${id}-exclude`}
          type="checkbox"
          className="checkbox__input"
          checked={row.excluded === true}
          onChange={(event) => onExclude(event.target.checked)}
        />
        <label className="checkbox__label" htmlFor={`${id}-exclude`}>
          Exclude {line}
        </label>
      </div>
    </form>
  );
}
