// Download the results as CSV or Excel: every row, or only the rows the table is showing.
import { useId, useState } from "react";
import { downloadFile } from "../../../lib/download-file.ts";
import { BusyButton } from "../../../components/busy-button.tsx";
import type { FleetRow, SavedRun, VehicleResult } from "../lib/fleet-types.ts";
import { exportHeader, exportRows } from "../lib/export/export-table.ts";
import { toCsv } from "../lib/export/to-csv.ts";
import { toXlsx } from "../lib/export/to-xlsx.ts";

interface ExportControlsProps {
  run: SavedRun;
  results: ReadonlyMap<string, VehicleResult>;
  /** The rows the table shows now, in its order. */
  shownRows: readonly FleetRow[];
  today: string;
}

type Scope = "all" | "shown";

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
}: ExportControlsProps) {
  const id = useId();
  const [scope, setScope] = useState<Scope>("all");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();

  function table(): string[][] {
    const rows = scope === "all" ? run.rows : shownRows;
    const resultMap = results as Map<string, VehicleResult>;
    return [exportHeader(run), ...exportRows([...rows], resultMap, run, today)];
  }

  async function download(kind: "csv" | "xlsx") {
    setBusy(true);
    setProblem(undefined);
    try {
      const blob =
        kind === "csv"
          ? new Blob([toCsv(table())], { type: "text/csv;charset=utf-8" })
          : await toXlsx(table(), "Fleet check");
      downloadFile(fileName(run, kind), blob);
    } catch {
      setProblem(
        "The file could not be made. Try again, or download the other format.",
      );
    } finally {
      setBusy(false);
    }
  }

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
        <BusyButton
          busy={busy}
          busyLabel="Preparing…"
          onClick={() => void download("csv")}
          secondary
        >
          Download CSV
        </BusyButton>
        <BusyButton
          busy={busy}
          busyLabel="Preparing…"
          onClick={() => void download("xlsx")}
          secondary
        >
          Download Excel (.xlsx)
        </BusyButton>
      </div>
      {problem && (
        <p className="error-message" role="alert">
          {problem}
        </p>
      )}
    </section>
  );
}
