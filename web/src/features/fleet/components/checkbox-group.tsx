// A question answered by ticking any of several boxes: a fieldset whose legend asks it, with
// its hint and error (both read with the group), each box labelled. The first box carries the
// group's id, so an error summary's link puts the user in the group.
import type { ReactNode } from "react";

export interface CheckboxOption<T> {
  value: T;
  label: ReactNode;
}

interface CheckboxGroupProps<T extends string | number> {
  id: string;
  legend: string;
  hint?: ReactNode;
  error?: string;
  options: readonly CheckboxOption<T>[];
  chosen: ReadonlySet<T>;
  onChange: (value: T, checked: boolean) => void;
}

export function CheckboxGroup<T extends string | number>({
  id,
  legend,
  hint,
  error,
  options,
  chosen,
  onChange,
}: CheckboxGroupProps<T>) {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy =
    [hint && hintId, error && errorId].filter(Boolean).join(" ") || undefined;
  const boxId = (index: number, value: T) =>
    index === 0 ? id : `${id}-${value}`;
  return (
    <div className={`form-group${error ? " form-group--error" : ""}`}>
      <fieldset className="checkbox-group" aria-describedby={describedBy}>
        <legend className="label">{legend}</legend>
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
        {options.map((option, index) => (
          <div key={option.value} className="checkbox checkbox--small">
            <input
              id={boxId(index, option.value)}
              type="checkbox"
              className="checkbox__input"
              checked={chosen.has(option.value)}
              onChange={(event) => onChange(option.value, event.target.checked)}
            />
            <label
              className="checkbox__label"
              htmlFor={boxId(index, option.value)}
            >
              {option.label}
            </label>
          </div>
        ))}
      </fieldset>
    </div>
  );
}
