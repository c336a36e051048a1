// Download a saved fleet's current status as CSV or Excel, as the fleet check's results are:
// every vehicle, or only those the table shows. The file is made by the results' export worker
// (lib/export/export-client.ts), which builds the table from the vehicles sent in chunks, so
// the page stays usable; the user sees how far it has got and can cancel, and each step is said
// in a live region already on the page.
import { useId, useState } from "react";
import {
  makeWatchedExportFile,
  type ExportWorkerFactory,
} from "../lib/export/export-client.ts";
import type { ExportFormat } from "../lib/export/export-protocol.ts";
import type { WatchedEntry } from "../lib/watched-view.ts";
import { DownloadButtons, DownloadProgress } from "./download-buttons.tsx";
import { ExportScope, type ExportScopeValue } from "./export-scope.tsx";
import { LiveMessage } from "../../../components/live-message.tsx";
import { useExportDownload } from "./use-export-download.ts";

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
  /** Tests hold the worker's answers; the app lets export-client choose. */
  createWorker?: ExportWorkerFactory;
}

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
  createWorker,
}: WatchedExportControlsProps) {
  const id = useId();
  const [scope, setScope] = useState<ExportScopeValue>("all");
  const { making, status, problem, download, stop, buttonRef } =
    useExportDownload(async (format, { signal, onProgress }) => {
      const file = await makeWatchedExportFile(
        {
          format,
          fleet: { name: fleetName, columns, since },
          entries: scope === "all" ? all : shown,
        },
        { onProgress, signal, createWorker },
      );
      return { name: fileName(fleetName, today, format), file };
    });

  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="heading-m">
        Download this fleet
      </h2>
      <ExportScope
        legend="Which vehicles?"
        noun="vehicle"
        all={all.length}
        shown={shown.length}
        scope={scope}
        onChange={setScope}
      />
      <DownloadButtons
        making={making !== undefined}
        onDownload={(format) => void download(format)}
        buttonRef={buttonRef}
      />
      {making && <DownloadProgress making={making} onCancel={stop} />}
      {/* Said once at each step, not at every percent. */}
      <LiveMessage className="visually-hidden">{status}</LiveMessage>
      <LiveMessage alert className="error-message">
        {problem}
      </LiveMessage>
    </section>
  );
}
