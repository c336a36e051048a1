// The "Which rows?" radios of a download: every row, or only those the table shows, each with
// its count.
import { useId } from "react";
import { count } from "../../../lib/count.ts";

export type ExportScopeValue = "all" | "shown";

export function ExportScope({
  legend,
  noun,
  all,
  shown,
  scope,
  onChange,
}: {
  /** Such as "Which rows?". */
  legend: string;
  /** "row" or "vehicle": "Every row (3)", "Only the rows shown below (2)". */
  noun: string;
  all: number;
  shown: number;
  scope: ExportScopeValue;
  onChange: (scope: ExportScopeValue) => void;
}) {
  const id = useId();
  return (
    <fieldset className="radios">
      <legend className="label">{legend}</legend>
      <div className="radios__item">
        <input
          id={`${id}-all`}
          type="radio"
          name={`${id}-scope`}
          checked={scope === "all"}
          onChange={() => onChange("all")}
        />
        <label htmlFor={`${id}-all`}>
          Every {noun} ({count(all)})
        </label>
      </div>
      <div className="radios__item">
        <input
          id={`${id}-shown`}
          type="radio"
          name={`${id}-scope`}
          checked={scope === "shown"}
          onChange={() => onChange("shown")}
        />
        <label htmlFor={`${id}-shown`}>
          Only the {noun}s shown below ({count(shown)})
        </label>
      </div>
    </fieldset>
  );
}
