// The parser's worker: reads one list off the page's thread, so a 100,000-row file never
// freezes the page, and answers once. parse-client starts it and ends it.
import {
  runParse,
  type ParseRequest,
  type ParseResponse,
} from "./run-parse.ts";

// The app's TypeScript sees the page's globals (lib "DOM"), not a worker's; these two are all
// this file uses of its scope.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<ParseRequest>) => void) | null;
  postMessage(response: ParseResponse): void;
};

scope.onmessage = (event) => {
  void runParse(event.data).then((response) => scope.postMessage(response));
};
