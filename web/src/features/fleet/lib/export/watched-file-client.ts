// The fleet page's way to make its export file: in a module worker started for one file and
// ended as soon as it answers or the page lets go of it; in-thread only where the browser has no
// Worker (jsdom, in tests), loaded then, so the page's bundle does not carry the writers.
import { ExportFileError } from "./export-client.ts";
import type {
  WatchedFileRequest,
  WatchedFileResponse,
} from "./watched-file.ts";

function inWorker(
  request: WatchedFileRequest,
  signal?: AbortSignal,
): Promise<Blob> {
  return new Promise<Blob>((resolve, reject) => {
    // Written out here, as Vite needs it to bundle the worker.
    const worker = new Worker(
      new URL("./watched-file-worker.ts", import.meta.url),
      { type: "module" },
    );
    const end = () => {
      worker.terminate();
      signal?.removeEventListener("abort", abort);
    };
    const abort = () => {
      end();
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", abort, { once: true });
    worker.onmessage = (event: MessageEvent<WatchedFileResponse>) => {
      end();
      if (event.data.kind === "done") resolve(event.data.file);
      else reject(new ExportFileError());
    };
    worker.onerror = (event) => {
      // Handled here: the user gets a message, the console no uncaught error.
      event.preventDefault();
      end();
      reject(new ExportFileError());
    };
    try {
      worker.postMessage(request);
    } catch {
      end();
      reject(new ExportFileError());
    }
  });
}

export async function makeWatchedFile(
  request: WatchedFileRequest,
  { signal }: { signal?: AbortSignal } = {},
): Promise<Blob> {
  signal?.throwIfAborted();
  if (typeof Worker === "function") return inWorker(request, signal);
  const { buildWatchedFile } = await import("./watched-file.ts");
  try {
    return await buildWatchedFile(request);
  } catch {
    throw new ExportFileError();
  }
}
