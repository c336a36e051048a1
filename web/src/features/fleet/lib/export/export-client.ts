// The page's way to make an export file (the fleet check's results, or a saved fleet's status):
// in a module worker started for one file and ended as soon as it answers or the user cancels,
// so the page stays responsive however long the list. The rows go over in chunks, with a pause
// between them, so that copying them to the worker never blocks the page for long either; the
// worker builds the table from them. Where the browser has no Worker (jsdom, in tests) the same
// job runs in-thread.
import type { FleetRow, VehicleResult } from "../fleet-types.ts";
import type { WatchedEntry } from "../watched-view.ts";
import type { ExportFileInput } from "./export-file.ts";
import type {
  ExportWorker,
  ExportWorkerFactory,
} from "./export-worker-factory.ts";
import type {
  ExportFormat,
  ExportRequest,
  ExportResponse,
  WatchedFileInfo,
} from "./export-protocol.ts";

export const EXPORT_FAILED =
  "The file could not be made. Try again, or download the other format.";

/** Why no file was made; `message` is written for the user. */
export class ExportFileError extends Error {
  constructor() {
    super(EXPORT_FAILED);
    this.name = "ExportFileError";
  }
}

export type {
  ExportWorker,
  ExportWorkerFactory,
} from "./export-worker-factory.ts";

export const moduleExportWorker: ExportWorkerFactory = (answer, crash) => {
  // Written out here, as Vite needs it to bundle the worker.
  const worker = new Worker(new URL("./export-worker.ts", import.meta.url), {
    type: "module",
  });
  worker.onmessage = (event: MessageEvent<ExportResponse>) =>
    answer(event.data);
  worker.onerror = (event) => {
    // Handled here: the user gets a message, the console no uncaught error.
    event.preventDefault();
    crash();
  };
  worker.onmessageerror = () => crash();
  return {
    send: (request) => worker.postMessage(request),
    stop: () => worker.terminate(),
  };
};

/** The module worker; the in-thread job only where there is no Worker at all. */
async function defaultFactory(): Promise<ExportWorkerFactory> {
  if (typeof Worker === "function") return moduleExportWorker;
  return (await import("./in-thread-export-worker.ts")).inThreadExportWorker;
}

/** Rows per message: small enough that copying one is a short task for the page. */
const CHUNK_ROWS = 5_000;

const pause = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

function chunkResults(
  rows: readonly FleetRow[],
  results: ReadonlyMap<string, VehicleResult>,
): (readonly [string, VehicleResult])[] {
  const needed = new Map<string, VehicleResult>();
  for (const row of rows) {
    const result = row.registration && results.get(row.registration);
    if (result && row.registration) needed.set(row.registration, result);
  }
  return [...needed];
}

export interface ExportOptions {
  /** Hears the percentage done, 0 to 99; the file itself means 100. */
  onProgress?: (percent: number) => void;
  /** Aborting it ends the worker and rejects with the signal's reason. */
  signal?: AbortSignal;
  createWorker?: ExportWorkerFactory;
  chunkRows?: number;
}

/** A saved fleet's file: its vehicles (every one, or those the table shows), in their order. */
export interface WatchedExportInput {
  format: ExportFormat;
  fleet: WatchedFileInfo;
  entries: readonly WatchedEntry[];
}

/**
 * Starts a worker, sends it `start` and then each of `chunks` (a pause between them), then
 * "end"; resolves with the file it answers. A cancel, a crash or a message the browser cannot
 * copy ends the worker at once.
 */
async function fileFromWorker(
  start: ExportRequest,
  chunks: () => Iterable<ExportRequest>,
  { onProgress, signal, createWorker }: ExportOptions,
): Promise<Blob> {
  signal?.throwIfAborted();
  const factory = createWorker ?? (await defaultFactory());
  signal?.throwIfAborted();
  let worker: ExportWorker | undefined;
  let settled = false;
  let crashed = () => {};
  const answered = new Promise<Blob>((resolve, reject) => {
    const finish = () => {
      settled = true;
      worker?.stop();
      signal?.removeEventListener("abort", onAbort);
    };
    const onAbort = () => {
      finish();
      reject(signal?.reason);
    };
    crashed = () => {
      finish();
      reject(new ExportFileError());
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      worker = factory((response) => {
        if (settled) return;
        if (response.kind === "progress") return onProgress?.(response.percent);
        finish();
        if (response.kind === "done") resolve(response.file);
        else reject(new ExportFileError());
      }, crashed);
    } catch {
      // No worker could start (a browser that refuses module workers, say).
      crashed();
    }
  });
  // Settled while the rows are still going over (a cancel, a crash): the caller hears it when
  // it awaits the answer, not as an unhandled rejection in between.
  answered.catch(() => undefined);
  try {
    worker?.send(start);
    for (const chunk of chunks()) {
      if (settled) break;
      worker?.send(chunk);
      await pause();
    }
    if (!settled) worker?.send({ kind: "end" });
  } catch {
    // A message the browser could not copy to the worker.
    crashed();
  }
  return answered;
}

/** The fleet check's results as CSV or Excel. */
export function makeExportFile(
  input: ExportFileInput,
  { chunkRows = CHUNK_ROWS, ...options }: ExportOptions = {},
): Promise<Blob> {
  const { rows, results, ...start } = input;
  return fileFromWorker(
    { kind: "start", ...start, total: rows.length },
    function* () {
      for (let index = 0; index < rows.length; index += chunkRows) {
        const chunk = rows.slice(index, index + chunkRows);
        yield {
          kind: "rows",
          rows: chunk,
          results: chunkResults(chunk, results),
        };
      }
    },
    options,
  );
}

/** A saved fleet's status as CSV or Excel: the worker builds the table from its vehicles. */
export function makeWatchedExportFile(
  { format, fleet, entries }: WatchedExportInput,
  { chunkRows = CHUNK_ROWS, ...options }: ExportOptions = {},
): Promise<Blob> {
  return fileFromWorker(
    { kind: "start-watched", format, fleet, total: entries.length },
    function* () {
      for (let index = 0; index < entries.length; index += chunkRows)
        yield {
          kind: "entries",
          entries: entries.slice(index, index + chunkRows),
        };
    },
    options,
  );
}
