// The page's way to read a pasted or uploaded list: in a module worker, started for one list
// and ended as soon as it answers or the user cancels. The worker is a parameter so that tests
// (jsdom has no Worker) can run the same parser in-thread: see in-thread-parse-worker.ts.
import type { ParseFailure, SourceTable } from "../fleet-types.ts";
import { MAX_FILE_BYTES, parseFailures } from "./parse-failures.ts";
import type { ParseRequest, ParseResponse } from "./run-parse.ts";

/** Why a list could not be read; `failure.message` is written for the user. */
export class FleetParseError extends Error {
  readonly failure: ParseFailure;

  constructor(failure: ParseFailure) {
    super(failure.message);
    this.name = "FleetParseError";
    this.failure = failure;
  }
}

export type ListInput =
  | { kind: "paste"; text: string }
  /** `sheet`: in a workbook, the sheet the user chose, by name. */
  | { kind: "file"; file: File; sheet?: string };

export interface ParseWorker {
  /** Sends the one request; `answer` gets the response, `crash` hears that the worker died. */
  run(
    request: ParseRequest,
    transfer: Transferable[],
    answer: (response: ParseResponse) => void,
    crash: () => void,
  ): void;
  stop(): void;
}

export type ParseWorkerFactory = () => ParseWorker;

export const moduleParseWorker: ParseWorkerFactory = () => {
  // Written out here, as Vite needs it to bundle the worker.
  const worker = new Worker(new URL("./parse-worker.ts", import.meta.url), {
    type: "module",
  });
  return {
    run(request, transfer, answer, crash) {
      worker.onmessage = (event: MessageEvent<ParseResponse>) =>
        answer(event.data);
      worker.onerror = (event) => {
        // Handled here: the user gets a message, the console no uncaught error.
        event.preventDefault();
        crash();
      };
      worker.onmessageerror = () => crash();
      worker.postMessage(request, transfer);
    },
    stop: () => worker.terminate(),
  };
};

async function requestFor(
  input: ListInput,
): Promise<{ request: ParseRequest; transfer: Transferable[] }> {
  if (input.kind === "paste")
    return { request: { kind: "paste", text: input.text }, transfer: [] };
  const { file } = input;
  // Refused before it is read into memory at all.
  if (file.size > MAX_FILE_BYTES)
    throw new FleetParseError(parseFailures.fileTooLarge(file.size));
  let bytes: ArrayBuffer;
  try {
    bytes = await file.arrayBuffer();
  } catch {
    throw new FleetParseError(parseFailures.unreadable("file"));
  }
  // Handed over, not copied: the page has no further use for the bytes.
  return {
    request: { kind: "file", name: file.name, bytes, sheet: input.sheet },
    transfer: [bytes],
  };
}

/**
 * The list as a table, or a FleetParseError saying why not. Aborting `signal` ends the
 * worker and rejects with the signal's reason (an "AbortError" DOMException by default).
 */
export async function readList(
  input: ListInput,
  signal?: AbortSignal,
  createWorker: ParseWorkerFactory = moduleParseWorker,
): Promise<SourceTable> {
  signal?.throwIfAborted();
  const { request, transfer } = await requestFor(input);
  signal?.throwIfAborted();
  return new Promise<SourceTable>((resolve, reject) => {
    let worker: ParseWorker | undefined;
    const finish = () => {
      worker?.stop();
      signal?.removeEventListener("abort", onAbort);
    };
    const onAbort = () => {
      finish();
      reject(signal?.reason);
    };
    const crashed = () => {
      finish();
      reject(new FleetParseError(parseFailures.unreadable(input.kind)));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      worker = createWorker();
      worker.run(
        request,
        transfer,
        (response) => {
          finish();
          if (response.ok) resolve(response.table);
          else reject(new FleetParseError(response.failure));
        },
        crashed,
      );
    } catch {
      // No worker could start (a browser that refuses module workers, say).
      crashed();
    }
  });
}
