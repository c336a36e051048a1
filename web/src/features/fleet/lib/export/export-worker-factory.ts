// The face every export worker shows, the module worker's and the in-thread one's alike. Its own
// module because export-client.ts picks the in-thread worker and that worker implements this
// face: here, neither imports the other to know it.
import type { ExportRequest, ExportResponse } from "./export-protocol.ts";

export interface ExportWorker {
  send(request: ExportRequest): void;
  stop(): void;
}

/** Starts a worker; `answer` gets its responses, `crash` hears that it died. */
export type ExportWorkerFactory = (
  answer: (response: ExportResponse) => void,
  crash: () => void,
) => ExportWorker;
