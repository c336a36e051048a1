// The export worker's work, message by message: gather the page's chunks of rows (the results'
// rows and answers, or a saved fleet's vehicles), then build the file and answer with it.
// Progress runs 0-40% while the rows arrive and 40-90% while the table is built; writing the
// file takes the rest.
import type { FleetRow, VehicleResult } from "../fleet-types.ts";
import type { WatchedEntry } from "../watched-view.ts";
import { buildExportFile } from "./export-file.ts";
import type { ExportRequest, ExportResponse } from "./export-protocol.ts";
import { buildWatchedFile } from "./watched-file.ts";

type Started = Extract<ExportRequest, { kind: "start" | "start-watched" }>;

const RECEIVED_SHARE = 40;
const BUILT_SHARE = 50;

export function exportJob(
  post: (response: ExportResponse) => void,
): (request: ExportRequest) => void {
  let started: Started | undefined;
  const rows: FleetRow[] = [];
  const results = new Map<string, VehicleResult>();
  const entries: WatchedEntry[] = [];
  let lastPercent = -1;
  let over = false;

  const report = (percent: number) => {
    const whole = Math.floor(percent);
    if (whole === lastPercent) return;
    lastPercent = whole;
    post({ kind: "progress", percent: whole });
  };
  const fail = () => {
    over = true;
    post({ kind: "failed" });
  };
  const received = () =>
    started?.kind === "start-watched" ? entries.length : rows.length;

  async function finish(start: Started) {
    const built = (fraction: number) =>
      report(RECEIVED_SHARE + fraction * BUILT_SHARE);
    try {
      const file =
        start.kind === "start"
          ? await buildExportFile({ ...start, rows, results }, built)
          : await buildWatchedFile({ ...start, entries }, built);
      over = true;
      post({ kind: "done", file });
    } catch {
      fail();
    }
  }

  return (request) => {
    if (over) return;
    if (request.kind === "start" || request.kind === "start-watched") {
      if (started) return fail();
      started = request;
      report(0);
      return;
    }
    if (!started) return fail();
    if (request.kind === "rows" && started.kind === "start") {
      for (const row of request.rows) rows.push(row);
      for (const [registration, result] of request.results)
        results.set(registration, result);
    } else if (request.kind === "entries" && started.kind === "start-watched") {
      for (const entry of request.entries) entries.push(entry);
    } else if (request.kind !== "end") {
      // Rows of the other file: this one would be wrong.
      return fail();
    }
    if (request.kind !== "end") {
      report((received() / Math.max(started.total, 1)) * RECEIVED_SHARE);
      return;
    }
    // The page sent fewer rows than it said: a file short of rows would look complete.
    if (received() !== started.total) return fail();
    void finish(started);
  };
}
