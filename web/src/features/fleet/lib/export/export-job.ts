// The export worker's work, message by message: gather the page's chunks of rows, then build
// the file and answer with it. Progress runs 0-40% while the rows arrive and 40-90% while the
// table is built; writing the file takes the rest.
import type { FleetRow, VehicleResult } from "../fleet-types.ts";
import { buildExportFile } from "./export-file.ts";
import type { ExportRequest, ExportResponse } from "./export-protocol.ts";

type Started = Extract<ExportRequest, { kind: "start" }>;

const RECEIVED_SHARE = 40;
const BUILT_SHARE = 50;

export function exportJob(
  post: (response: ExportResponse) => void,
): (request: ExportRequest) => void {
  let started: Started | undefined;
  const rows: FleetRow[] = [];
  const results = new Map<string, VehicleResult>();
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

  async function finish(start: Started) {
    try {
      const file = await buildExportFile(
        { ...start, rows, results },
        (fraction) => report(RECEIVED_SHARE + fraction * BUILT_SHARE),
      );
      over = true;
      post({ kind: "done", file });
    } catch {
      fail();
    }
  }

  return (request) => {
    if (over) return;
    if (request.kind === "start") {
      started = request;
      report(0);
      return;
    }
    if (!started) return fail();
    if (request.kind === "rows") {
      for (const row of request.rows) rows.push(row);
      for (const [registration, result] of request.results)
        results.set(registration, result);
      report((rows.length / Math.max(started.total, 1)) * RECEIVED_SHARE);
      return;
    }
    // The page sent fewer rows than it said: a file short of rows would look complete.
    if (rows.length !== started.total) return fail();
    void finish(started);
  };
}
