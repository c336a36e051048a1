// Download the results as CSV or Excel: every row, or only the rows the table is showing. The
// file is made in a worker (lib/export/export-client.ts), so the page stays usable; the user
// sees how far it has got and can cancel.
import { useId, useState } from "react";
import { createPortal, flushSync } from "react-dom";
import type { FleetRow, SavedRun, VehicleResult } from "../lib/fleet-types.ts";
import {
  makeExportFile,
  type ExportWorkerFactory,
} from "../lib/export/export-client.ts";
import { DownloadButtons, DownloadProgress } from "./download-buttons.tsx";
import { ExportScope, type ExportScopeValue } from "./export-scope.tsx";
import { FleetReport } from "./fleet-report.tsx";
import { useExportDownload } from "./use-export-download.ts";

interface ExportControlsProps {
  run: SavedRun;
  results: ReadonlyMap<string, VehicleResult>;
  /** The rows the table shows now, in its order. */
  shownRows: readonly FleetRow[];
  today: string;
  /** Tests hold the worker's answers; the app lets export-client choose. */
  createWorker?: ExportWorkerFactory;
}

function fileName(run: SavedRun, extension: string): string {
  const base = run.name
    .replace(/\.[^.]+$/, "")
    .replace(/[^\w -]+/g, "")
    .trim();
  return `vics-fleet-check-${base || "list"}-${run.createdAt.slice(0, 10)}.${extension}`;
}

export function ExportControls({
  run,
  results,
  shownRows,
  today,
  createWorker,
}: ExportControlsProps) {
  const id = useId();
  const [scope, setScope] = useState<ExportScopeValue>("all");
  const [report, setReport] = useState(false);
  const { making, status, problem, download, stop, buttonRef } =
    useExportDownload(async (format, { signal, onProgress }) => {
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
        { onProgress, signal, createWorker },
      );
      return { name: fileName(run, format), file };
    });

  function printReport() {
    // On the page before the browser lays out what it prints.
    flushSync(() => setReport(true));
    window.print();
  }

  return (
    <section className="export-controls" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="heading-m">
        Download the results
      </h2>
      <ExportScope
        legend="Which rows?"
        noun="row"
        all={run.rows.length}
        shown={shownRows.length}
        scope={scope}
        onChange={setScope}
      />
      <DownloadButtons
        making={making !== undefined}
        onDownload={(format) => void download(format)}
        buttonRef={buttonRef}
      >
        <button
          type="button"
          className="button button--secondary"
          onClick={printReport}
        >
          Print report
        </button>
      </DownloadButtons>
      {making && <DownloadProgress making={making} onCancel={stop} />}
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
