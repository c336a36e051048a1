// "Which column has the registrations?": the header's names (or "Column 2: AB12 CDE" when the
// list has none), pre-selected when a header or the values look like registrations.
import type { SourceTable } from "../lib/fleet-types.ts";

interface ColumnChoiceProps {
  id: string;
  table: SourceTable;
  column: number;
  onChange: (column: number) => void;
  /** Why the chosen column will not do, GOV.UK style, beside the field. */
  error?: string;
}

function columnLabel(table: SourceTable, index: number): string {
  const name = table.header?.[index];
  if (name) return name;
  const sample = table.rows.find((row) => row.cells[index])?.cells[index];
  return `Column ${index + 1}${sample ? ` (for example ${sample})` : ""}`;
}

export function ColumnChoice({
  id,
  table,
  column,
  onChange,
  error,
}: ColumnChoiceProps) {
  return (
    <div className={`form-group${error ? " form-group--error" : ""}`}>
      <label className="label" htmlFor={id}>
        Which column has the registrations?
      </label>
      <div id={`${id}-hint`} className="hint">
        Your other columns are kept and shown beside each result.
      </div>
      {error && (
        <p id={`${id}-error`} className="error-message">
          <span className="visually-hidden">Error:</span> {error}
        </p>
      )}
      <select
        id={id}
        className={`select${error ? " input--error" : ""}`}
        value={column}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-hint ${id}-error` : `${id}-hint`}
        onChange={(event) => onChange(Number(event.target.value))}
      >
        {Array.from({ length: table.columnCount }, (_, index) => (
          <option key={index} value={index}>
            {columnLabel(table, index)}
          </option>
        ))}
      </select>
    </div>
  );
}
