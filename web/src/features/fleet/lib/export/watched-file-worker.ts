// The saved fleet's export worker: writes the CSV or Excel file off the page's thread, so a
// fleet of 100,000 vehicles never freezes the page. watched-file-client starts it for one file
// and ends it once it answers.
import {
  buildWatchedFile,
  type WatchedFileRequest,
  type WatchedFileResponse,
} from "./watched-file.ts";

// The app's TypeScript sees the page's globals (lib "DOM"), not a worker's; these two are all
// this file uses of its scope.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<WatchedFileRequest>) => void) | null;
  postMessage(response: WatchedFileResponse): void;
};

scope.onmessage = (event) => {
  buildWatchedFile(event.data).then(
    (file) => scope.postMessage({ kind: "done", file }),
    () => scope.postMessage({ kind: "failed" }),
  );
};
