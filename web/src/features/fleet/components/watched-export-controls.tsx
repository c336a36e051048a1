// Download a saved fleet's current status as CSV or Excel, as the fleet check's results are:
// every vehicle, or only those the table shows. The file is written off the page's thread
// (lib/export/watched-file-client.ts); each step is said in a live region already on the page.
import { useId, useState } from "react";
import type { ExportFormat } from "../lib/export/export-protocol.ts";
import { makeWatchedFile } from "../lib/export/watched-file-client.ts";
import {
  watchedExportHeader,
  watchedExportRows,
} from "../lib/watched-export.ts";
import type { WatchedEntry } from "../lib/watched-view.ts";
import { DownloadButtons } from "./download-buttons.tsx";
import { ExportScope, type ExportScopeValue } from "./export-scope.tsx";
import { LiveMessage } from "./live-message.tsx";
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
}: WatchedExportControlsProps) {
  const id = useId();
  const [scope, setScope] = useState<ExportScopeValue>("all");
  const { making, status, problem, download } = useExportDownload(
    async (format, { signal }) => {
      const entries = scope === "all" ? all : shown;
      const table = [
        watchedExportHeader(columns, since),
        ...watchedExportRows(entries, columns, since),
      ];
      const file = await makeWatchedFile(
        { format, table, sheetName: fleetName },
        { signal },
      );
      return { name: fileName(fleetName, today, format), file };
    },
  );

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
      />
      <LiveMessage className="visually-hidden">{status}</LiveMessage>
      <LiveMessage alert className="error-message">
        {problem}
      </LiveMessage>
    </section>
  );
}
