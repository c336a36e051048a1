// Download the results as CSV or Excel: every row, or only the rows the table is showing. The
// file is made in a worker (lib/export/export-client.ts), so the page stays usable; the user
// sees how far it has got and can cancel.
import { useEffect, useId, useRef, useState } from "react";
import { createPortal, flushSync } from "react-dom";
import { downloadFile } from "../../../lib/download-file.ts";
import type { FleetRow, SavedRun, VehicleResult } from "../lib/fleet-types.ts";
import {
  EXPORT_FAILED,
  makeExportFile,
  type ExportWorkerFactory,
} from "../lib/export/export-client.ts";
import type { ExportFormat } from "../lib/export/export-protocol.ts";
import { FleetReport } from "./fleet-report.tsx";

interface ExportControlsProps {
  run: SavedRun;
  results: ReadonlyMap<string, VehicleResult>;
  /** The rows the table shows now, in its order. */
  shownRows: readonly FleetRow[];
  today: string;
  /** Tests hold the worker's answers; the app lets export-client choose. */
  createWorker?: ExportWorkerFactory;
}

type Scope = "all" | "shown";

const FORMAT_WORDS: Record<ExportFormat, string> = {
  csv: "CSV file",
  xlsx: "Excel file",
};

function fileName(run: SavedRun, extension: string): string {
  const base = run.name
    .replace(/\.[^.]+$/, "")
    .replace(/[^\w -]+/g, "")
    .trim();
  return `vics-fleet-check-${base || "list"}-${run.createdAt.slice(0, 10)}.${extension}`;
}

const count = (value: number) => value.toLocaleString("en-GB");

export function ExportControls({
  run,
  results,
  shownRows,
  today,
  createWorker,
}: ExportControlsProps) {
  const id = useId();
  const [scope, setScope] = useState<Scope>("all");
  const [making, setMaking] = useState<{
    format: ExportFormat;
    percent: number;
  }>();
  const [status, setStatus] = useState("");
  const [problem, setProblem] = useState<string>();
  const [report, setReport] = useState(false);
  const cancel = useRef<AbortController>(undefined);
  const buttons = useRef<
    Partial<Record<ExportFormat, HTMLButtonElement | null>>
  >({});

  // Leaving the page ends a file still being made.
  useEffect(() => () => cancel.current?.abort(), []);

  async function download(format: ExportFormat) {
    if (making) return;
    const controller = new AbortController();
    cancel.current = controller;
    setMaking({ format, percent: 0 });
    setStatus(`Preparing ${FORMAT_WORDS[format]}…`);
    setProblem(undefined);
    try {
      const file = await makeExportFile(
        {
          format,
          // The rows go over in chunks; the run's own description does not carry them.
          run: {
            name: run.name,
            createdAt: run.createdAt,
            registrationColumn: run.registrationColumn,
            registrationColumnIndex: run.registrationColumnIndex,
            extraColumns: run.extraColumns,
            checkCompliance: run.checkCompliance,
            listRows: run.rows.length,
          },
          rows: scope === "all" ? run.rows : shownRows,
          results,
          today,
        },
        {
          onProgress: (percent) => setMaking({ format, percent }),
          signal: controller.signal,
          createWorker,
        },
      );
      downloadFile(fileName(run, format), file);
      setStatus(`${FORMAT_WORDS[format]} ready.`);
    } catch {
      if (controller.signal.aborted) return;
      setStatus("");
      setProblem(EXPORT_FAILED);
    } finally {
      if (cancel.current === controller) setMaking(undefined);
    }
  }

  function printReport() {
    // On the page before the browser lays out what it prints.
    flushSync(() => setReport(true));
    window.print();
  }

  function stop() {
    if (!making) return;
    cancel.current?.abort();
    setMaking(undefined);
    setStatus("Download cancelled. No file was saved.");
    // The Cancel button goes: keyboard users carry on from the button they pressed.
    buttons.current[making.format]?.focus();
  }

  const words = making && `Preparing ${FORMAT_WORDS[making.format]}`;
  const button = (format: ExportFormat, label: string) => (
    <button
      type="button"
      ref={(element) => {
        buttons.current[format] = element;
      }}
      className="button button--secondary"
      // aria-disabled, not disabled, so keyboard focus stays on the button.
      aria-disabled={making ? true : undefined}
      onClick={() => void download(format)}
    >
      {label}
    </button>
  );

  return (
    <section className="export-controls" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="heading-m">
        Download the results
      </h2>
      <fieldset className="radios">
        <legend className="label">Which rows?</legend>
        <div className="radios__item">
          <input
            id={`${id}-all`}
            type="radio"
            name={`${id}-scope`}
            checked={scope === "all"}
            onChange={() => setScope("all")}
          />
          <label htmlFor={`${id}-all`}>
            Every row ({count(run.rows.length)})
          </label>
        </div>
        <div className="radios__item">
          <input
            id={`${id}-shown`}
            type="radio"
            name={`${id}-scope`}
            checked={scope === "shown"}
            onChange={() => setScope("shown")}
          />
          <label htmlFor={`${id}-shown`}>
            Only the rows shown below ({count(shownRows.length)})
          </label>
        </div>
      </fieldset>
      <div className="button-group">
        {button("csv", "Download CSV")}
        {button("xlsx", "Download Excel (.xlsx)")}
        <button
          type="button"
          className="button button--secondary"
          onClick={printReport}
        >
          Print report
        </button>
      </div>
      {making && (
        <div className="export-controls__progress">
          <progress
            className="run-progress__bar"
            aria-label={words}
            max={100}
            value={making.percent}
          >
            {making.percent}%
          </progress>
          <p>
            {words}… {making.percent}%
          </p>
          <button
            type="button"
            className="button button--secondary"
            onClick={stop}
          >
            Cancel download
          </button>
        </div>
      )}
      {/* Said once at each step, not at every percent. */}
      <p className="visually-hidden" role="status">
        {status}
      </p>
      {problem && (
        <p className="error-message" role="alert">
          {problem}
        </p>
      )}
      {/* Beside the app, not in it, so that print.css can print it alone. */}
      {report &&
        createPortal(
          <FleetReport run={run} results={results} today={today} />,
          document.body,
        )}
    </section>
  );
}
