// The export worker: builds a CSV or Excel file off the page's thread, so a 50,000-row download
// never freezes the page. export-client starts it for one file and ends it when it answers or
// the user cancels.
import { exportJob } from "./export-job.ts";
import type { ExportRequest, ExportResponse } from "./export-protocol.ts";

// The app's TypeScript sees the page's globals (lib "DOM"), not a worker's; these two are all
// this file uses of its scope.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<ExportRequest>) => void) | null;
  postMessage(response: ExportResponse): void;
};

const handle = exportJob((response) => scope.postMessage(response));
scope.onmessage = (event) => handle(event.data);
