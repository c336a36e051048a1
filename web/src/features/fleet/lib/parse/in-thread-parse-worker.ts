// The parser on the calling thread, behind the same ParseWorker face as the real worker: for
// tests (jsdom has no Worker), passed to readList in place of the module worker. The app never
// imports this file, so the parser's libraries stay out of the page's bundle.
import type { ParseWorkerFactory } from "./parse-client.ts";
import { runParse } from "./run-parse.ts";

export const inThreadParseWorker: ParseWorkerFactory = () => {
  let stopped = false;
  return {
    run(request, _transfer, answer, crash) {
      runParse(request).then(
        (response) => {
          if (!stopped) answer(response);
        },
        () => {
          if (!stopped) crash();
        },
      );
    },
    stop() {
      stopped = true;
    },
  };
};
