// The page's way to make an export file: in a module worker started for one file and ended as
// soon as it answers or the user cancels, so the page stays responsive however long the list.
// The rows go over in chunks, with a pause between them, so that copying them to the worker
// never blocks the page for long either. Where the browser has no Worker (jsdom, in tests)
// the same job runs in-thread.
import type { FleetRow, VehicleResult } from "../fleet-types.ts";
import type { ExportFileInput } from "./export-file.ts";
import type { ExportRequest, ExportResponse } from "./export-protocol.ts";

export const EXPORT_FAILED =
  "The file could not be made. Try again, or download the other format.";

/** Why no file was made; `message` is written for the user. */
export class ExportFileError extends Error {
  constructor() {
    super(EXPORT_FAILED);
    this.name = "ExportFileError";
  }
}

export interface ExportWorker {
  send(request: ExportRequest): void;
  stop(): void;
}

/** Starts a worker; `answer` gets its responses, `crash` hears that it died. */
export type ExportWorkerFactory = (
  answer: (response: ExportResponse) => void,
  crash: () => void,
) => ExportWorker;

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

export async function makeExportFile(
  input: ExportFileInput,
  {
    onProgress,
    signal,
    createWorker,
    chunkRows = CHUNK_ROWS,
  }: ExportOptions = {},
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
  const { rows, results, ...start } = input;
  try {
    worker?.send({ kind: "start", ...start, total: rows.length });
    for (let index = 0; index < rows.length && !settled; index += chunkRows) {
      const chunk = rows.slice(index, index + chunkRows);
      worker?.send({
        kind: "rows",
        rows: chunk,
        results: chunkResults(chunk, results),
      });
      await pause();
    }
    if (!settled) worker?.send({ kind: "end" });
  } catch {
    // A message the browser could not copy to the worker.
    crashed();
  }
  return answered;
}
