// The two controls above a table (a fleet's results, a saved fleet, the alerts' delivery log):
// "Show", a select of filters whose options the page gives, and "Search" with a hint of what it
// looks through.
import { useId, type ReactNode } from "react";

export function ShowSelect<T extends string>({
  value,
  onChange,
  children,
}: {
  value: T;
  onChange: (value: T) => void;
  /** The options. */
  children: ReactNode;
}) {
  const id = useId();
  return (
    <div className="form-group">
      <label className="label" htmlFor={`${id}-filter`}>
        Show
      </label>
      <select
        id={`${id}-filter`}
        className="select"
        value={value}
        onChange={(event) => onChange(event.target.value as T)}
      >
        {children}
      </select>
    </div>
  );
}

export function SearchField({
  value,
  onChange,
  hint,
}: {
  value: string;
  onChange: (value: string) => void;
  hint: string;
}) {
  const id = useId();
  return (
    <div className="form-group">
      <label className="label" htmlFor={`${id}-search`}>
        Search
      </label>
      <div id={`${id}-search-hint`} className="hint">
        {hint}
      </div>
      <input
        id={`${id}-search`}
        type="search"
        className="input"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-describedby={`${id}-search-hint`}
        autoComplete="off"
        spellCheck={false}
      />
    </div>
  );
}
