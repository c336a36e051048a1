// Download a saved fleet's current status as CSV or Excel, as the fleet check's results are:
// every vehicle, or only those the table shows. The file is written off the page's thread
// (lib/export/watched-file-client.ts); each step is said in a live region already on the page.
import { useEffect, useId, useRef, useState } from "react";
import { downloadFile } from "../../../lib/download-file.ts";
import { EXPORT_FAILED } from "../lib/export/export-client.ts";
import type { ExportFormat } from "../lib/export/export-protocol.ts";
import { makeWatchedFile } from "../lib/export/watched-file-client.ts";
import {
  watchedExportHeader,
  watchedExportRows,
} from "../lib/watched-export.ts";
import type { WatchedEntry } from "../lib/watched-view.ts";
import { LiveMessage } from "./live-message.tsx";

interface WatchedExportControlsProps {
  fleetName: string;
  columns: readonly string[];
  /** Every vehicle of the fleet, in the order of action. */
  all: readonly WatchedEntry[];
  /** Those the table shows now. */
  shown: readonly WatchedEntry[];
  /** "Changed since" (YYYY-MM-DD): the file says what moved. */
  since?: string;
  /** The UK's date, for the file's name. */
  today: string;
}

const FORMAT_WORDS: Record<ExportFormat, string> = {
  csv: "CSV file",
  xlsx: "Excel file",
};

const count = (value: number) => value.toLocaleString("en-GB");

function fileName(fleetName: string, today: string, format: ExportFormat) {
  const base = fleetName.replace(/[^\w -]+/g, "").trim();
  return `vics-fleet-${base || "fleet"}-${today}.${format}`;
}

export function WatchedExportControls({
  fleetName,
  columns,
  all,
  shown,
  since,
  today,
}: WatchedExportControlsProps) {
  const id = useId();
  const [scope, setScope] = useState<"all" | "shown">("all");
  const [making, setMaking] = useState<ExportFormat>();
  const [status, setStatus] = useState("");
  const [problem, setProblem] = useState<string>();
  const cancel = useRef<AbortController>(undefined);
  // Leaving the page ends a file still being made.
  useEffect(() => () => cancel.current?.abort(), []);

  async function download(format: ExportFormat) {
    if (making) return;
    const controller = new AbortController();
    cancel.current = controller;
    setMaking(format);
    setStatus(`Preparing ${FORMAT_WORDS[format]}…`);
    setProblem(undefined);
    try {
      const entries = scope === "all" ? all : shown;
      const table = [
        watchedExportHeader(columns, since),
        ...watchedExportRows(entries, columns, since),
      ];
      const file = await makeWatchedFile(
        { format, table, sheetName: fleetName },
        { signal: controller.signal },
      );
      downloadFile(fileName(fleetName, today, format), file);
      setStatus(`${FORMAT_WORDS[format]} ready.`);
    } catch {
      if (controller.signal.aborted) return;
      setStatus("");
      setProblem(EXPORT_FAILED);
    } finally {
      if (cancel.current === controller) setMaking(undefined);
    }
  }

  const button = (format: ExportFormat, label: string) => (
    <button
      type="button"
      className="button button--secondary"
      // aria-disabled, not disabled, so keyboard focus stays on the button.
      aria-disabled={making ? true : undefined}
      onClick={() => void download(format)}
    >
      {label}
    </button>
  );

  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="heading-m">
        Download this fleet
      </h2>
      <fieldset className="radios">
        <legend className="label">Which vehicles?</legend>
        <div className="radios__item">
          <input
            id={`${id}-all`}
            type="radio"
            name={`${id}-scope`}
            checked={scope === "all"}
            onChange={() => setScope("all")}
          />
          <label htmlFor={`${id}-all`}>
            Every vehicle ({count(all.length)})
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
            Only the vehicles shown below ({count(shown.length)})
          </label>
        </div>
      </fieldset>
      <div className="button-group">
        {button("csv", "Download CSV")}
        {button("xlsx", "Download Excel (.xlsx)")}
      </div>
      <LiveMessage className="visually-hidden">{status}</LiveMessage>
      <LiveMessage alert className="error-message">
        {problem}
      </LiveMessage>
    </section>
  );
}
