// The GOV.UK file upload, inside a zone that also takes a file dragged onto it. The input is
// the way in for keyboard and screen-reader users; the zone is an extra for mouse users.
import { useState, type DragEvent, type ReactNode } from "react";

interface FileDropProps {
  inputId: string;
  hint: ReactNode;
  error?: string;
  onFile: (file: File) => void;
}

export const ACCEPTED_FILES =
  ".xlsx,.csv,.tsv,.txt,text/csv,text/tab-separated-values,text/plain,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

export function FileDrop({ inputId, hint, error, onFile }: FileDropProps) {
  const [over, setOver] = useState(false);

  function drop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setOver(false);
    const file = event.dataTransfer.files[0];
    if (file) onFile(file);
  }

  return (
    <div className={`form-group${error ? " form-group--error" : ""}`}>
      <h2 className="heading-m">
        <label htmlFor={inputId}>Upload a file</label>
      </h2>
      <div id={`${inputId}-hint`} className="hint">
        {hint}
      </div>
      {error && (
        <p id={`${inputId}-error`} className="error-message">
          <span className="visually-hidden">Error:</span> {error}
        </p>
      )}
      <div
        className={`file-drop${over ? " file-drop--over" : ""}`}
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={drop}
        data-testid="file-drop"
      >
        <input
          id={inputId}
          type="file"
          className={`file-upload${error ? " input--error" : ""}`}
          accept={ACCEPTED_FILES}
          aria-describedby={
            error ? `${inputId}-hint ${inputId}-error` : `${inputId}-hint`
          }
          aria-invalid={error ? true : undefined}
          onChange={(event) => {
            const file = event.target.files?.[0];
            // Cleared, so choosing the same file again (after fixing it) reads it again.
            event.target.value = "";
            if (file) onFile(file);
          }}
        />
        <p className="file-drop__words" aria-hidden="true">
          or drag and drop it here
        </p>
      </div>
    </div>
  );
}
