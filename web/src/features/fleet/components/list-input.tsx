// The first step of a fleet check: paste registrations, or upload a spreadsheet (picker or drag
// and drop). The list is read in a worker; a bad file gets a GOV.UK error summary with words to
// act on, and what was pasted is kept in this tab across a reload.
import { useId, useRef, useState, type FormEvent } from "react";
import { DocumentTitle } from "../../../components/document-title.tsx";
import { ErrorSummary } from "../../../components/error-summary.tsx";
import { LoadingMessage } from "../../../components/loading-message.tsx";
import { PageErrorContext } from "../../../lib/use-document-title.ts";
import { FLEET_MAX_ROWS, type SourceTable } from "../lib/fleet-types.ts";
import {
  FleetParseError,
  readList,
  type ListInput as Input,
} from "../lib/parse/parse-client.ts";
import { useFleetServices } from "../lib/fleet-services.ts";
import { FileDrop } from "./file-drop.tsx";
import { SheetChoice, type WorkbookTable } from "./sheet-choice.tsx";
import { TemplateLink } from "./template-link.tsx";
import { usePastedText } from "../lib/use-pasted-text.ts";
import { count } from "../../../lib/count.ts";

interface ListInputProps {
  onRead: (table: SourceTable) => void;
}

type Field = "paste" | "file";

interface InputError {
  field: Field;
  message: string;
  attempt: number;
}

export function ListInput({ onRead }: ListInputProps) {
  const id = useId();
  const fieldIds: Record<Field, string> = {
    paste: `${id}-paste`,
    file: `${id}-file`,
  };
  const { parseWorker: createWorker } = useFleetServices();
  const [pasted, setPasted] = usePastedText();
  const [error, setError] = useState<InputError>();
  const [reading, setReading] = useState<string>();
  const [workbook, setWorkbook] = useState<{
    file: File;
    table: WorkbookTable;
  }>();
  const reader = useRef<AbortController | null>(null);

  async function read(input: Input, field: Field, what: string) {
    reader.current?.abort();
    const controller = new AbortController();
    reader.current = controller;
    setReading(what);
    try {
      const table = await readList(input, controller.signal, createWorker);
      setError(undefined);
      const { sheet, sheets } = table;
      // A first read of a workbook with several sheets in use: the user picks one first.
      if (input.kind === "file" && !input.sheet && sheet && sheets)
        setWorkbook({ file: input.file, table: { ...table, sheet, sheets } });
      else onRead(table);
    } catch (failure) {
      if (controller.signal.aborted) return;
      const message =
        failure instanceof FleetParseError
          ? failure.message
          : "The list could not be read. Try again; if it keeps happening, save it as a CSV file and upload that.";
      setError((previous) => ({
        field,
        message,
        attempt: (previous?.attempt ?? 0) + 1,
      }));
    } finally {
      if (reader.current === controller) {
        reader.current = null;
        setReading(undefined);
      }
    }
  }

  function submitPaste(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void read({ kind: "paste", text: pasted }, "paste", "your list");
  }

  function chooseFile(file: File) {
    void read({ kind: "file", file }, "file", file.name);
  }

  function chooseSheet(sheet: string) {
    if (!workbook) return;
    setWorkbook(undefined);
    if (sheet === workbook.table.sheet) onRead(workbook.table);
    else
      void read(
        { kind: "file", file: workbook.file, sheet },
        "file",
        `“${sheet}” in ${workbook.file.name}`,
      );
  }

  if (workbook)
    return (
      <SheetChoice
        fileName={workbook.file.name}
        table={workbook.table}
        onChoose={chooseSheet}
        onBack={() => setWorkbook(undefined)}
      />
    );

  const errorFor = (field: Field) =>
    error?.field === field ? error.message : undefined;

  return (
    <PageErrorContext value={error !== undefined}>
      <DocumentTitle title="Fleet check" />
      {error && (
        <ErrorSummary
          errors={[{ fieldId: fieldIds[error.field], message: error.message }]}
          attempt={error.attempt}
        />
      )}
      <form className="fleet-input" noValidate onSubmit={submitPaste}>
        <div
          className={`form-group${errorFor("paste") ? " form-group--error" : ""}`}
        >
          <h2 className="heading-m">
            <label htmlFor={fieldIds.paste}>Paste registrations</label>
          </h2>
          <div id={`${fieldIds.paste}-hint`} className="hint">
            One per line, or separated by commas, semicolons or tabs. A list
            from an email works too: we find the registrations in each line and
            show you what we took. Up to {count(FLEET_MAX_ROWS)}.
          </div>
          {errorFor("paste") && (
            <p id={`${fieldIds.paste}-error`} className="error-message">
              <span className="visually-hidden">Error:</span>{" "}
              {errorFor("paste")}
            </p>
          )}
          <textarea
            id={fieldIds.paste}
            className={`textarea${errorFor("paste") ? " input--error" : ""}`}
            rows={8}
            value={pasted}
            onChange={(event) => setPasted(event.target.value)}
            aria-describedby={
              errorFor("paste")
                ? `${fieldIds.paste}-hint ${fieldIds.paste}-error`
                : `${fieldIds.paste}-hint`
            }
            aria-invalid={errorFor("paste") ? true : undefined}
            spellCheck={false}
            autoCapitalize="characters"
            autoComplete="off"
          />
        </div>
        <button type="submit" className="button">
          Continue
        </button>
      </form>

      <p className="fleet-input__or">or</p>

      <FileDrop
        inputId={fieldIds.file}
        error={errorFor("file")}
        onFile={chooseFile}
        hint={
          <>
            A spreadsheet (.xlsx, any sheet) or a CSV, TSV or TXT file, up to{" "}
            {count(FLEET_MAX_ROWS)} rows, one vehicle per row. You choose the
            registration column next; your other columns are kept.{" "}
            <TemplateLink />
          </>
        }
      />

      {reading && (
        <div className="fleet-input__reading">
          <LoadingMessage>{`Reading ${reading}…`}</LoadingMessage>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => reader.current?.abort()}
          >
            Cancel
          </button>
        </div>
      )}
      <p className="visually-hidden" role="status">
        {reading ? `Reading ${reading}…` : ""}
      </p>
    </PageErrorContext>
  );
}
