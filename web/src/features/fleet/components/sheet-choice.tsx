// "Which sheet has your vehicles?": a workbook with more than one sheet in use, its sheets by
// name with their rows, the one holding registrations chosen. A sheet with no registrations
// says so, and is refused while another has some: a summary sheet's depot names are not a fleet.
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { DocumentTitle } from "../../../components/document-title.tsx";
import { ErrorSummary } from "../../../components/error-summary.tsx";
import { PageErrorContext } from "../../../lib/use-document-title.ts";
import type { SheetSummary, SourceTable } from "../lib/fleet-types.ts";
import { count } from "../../../lib/count.ts";

/** A workbook as first read, with more than one sheet in use: its default sheet, and all. */
export type WorkbookTable = SourceTable & {
  sheet: string;
  sheets: SheetSummary[];
};

interface SheetChoiceProps {
  fileName: string;
  table: WorkbookTable;
  onChoose: (sheet: string) => void;
  onBack: () => void;
}

const plural = (value: number, one: string, many: string) =>
  `${count(value)} ${value === 1 ? one : many}`;

function sheetHint(sheet: SheetSummary): string {
  const rows = plural(sheet.rows, "row", "rows");
  return sheet.registrations === 0
    ? `${rows}, no registrations found`
    : `${rows}, ${plural(sheet.registrations, "registration", "registrations")}`;
}

export function SheetChoice({
  fileName,
  table,
  onChoose,
  onBack,
}: SheetChoiceProps) {
  const id = useId();
  const [chosen, setChosen] = useState(table.sheet);
  const [error, setError] = useState<{ message: string; attempt: number }>();
  // A new step: keyboard and screen-reader users start at its question.
  const legend = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    legend.current?.focus();
  }, []);
  const fieldId = (index: number) => `${id}-sheet-${index}`;
  const chosenIndex = table.sheets.findIndex((sheet) => sheet.name === chosen);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const sheet = table.sheets[chosenIndex];
    const elsewhere = table.sheets.some((other) => other.registrations > 0);
    if (sheet && sheet.registrations === 0 && elsewhere) {
      setError((previous) => ({
        message: `The sheet “${sheet.name}” has no registrations in it. Choose the sheet that lists your vehicles.`,
        attempt: (previous?.attempt ?? 0) + 1,
      }));
      return;
    }
    onChoose(chosen);
  }

  return (
    <PageErrorContext value={error !== undefined}>
      <DocumentTitle title="Choose a sheet – Fleet check" />
      {error && (
        <ErrorSummary
          errors={[{ fieldId: fieldId(chosenIndex), message: error.message }]}
          attempt={error.attempt}
        />
      )}
      <form className="sheet-choice" noValidate onSubmit={submit}>
        <fieldset
          className={`radios${error ? " form-group--error" : ""}`}
          aria-describedby={`${id}-hint`}
        >
          <legend>
            <h2 ref={legend} tabIndex={-1} className="heading-m">
              Which sheet has your vehicles?
            </h2>
          </legend>
          <p id={`${id}-hint`} className="hint">
            {fileName} has {count(table.sheets.length)} sheets. We chose the one
            that holds the most registrations.
          </p>
          {error && (
            <p className="error-message">
              <span className="visually-hidden">Error:</span> {error.message}
            </p>
          )}
          {table.sheets.map((sheet, index) => (
            <div key={sheet.name} className="radios__item">
              <input
                id={fieldId(index)}
                type="radio"
                name={`${id}-sheet`}
                checked={chosen === sheet.name}
                onChange={() => setChosen(sheet.name)}
              />
              <label htmlFor={fieldId(index)}>
                {sheet.name}{" "}
                <span className="hint checkbox__hint">{sheetHint(sheet)}</span>
              </label>
            </div>
          ))}
        </fieldset>
        <div className="button-group">
          <button type="submit" className="button">
            Continue
          </button>
          <button type="button" className="link-button" onClick={onBack}>
            Choose a different file
          </button>
        </div>
      </form>
    </PageErrorContext>
  );
}
