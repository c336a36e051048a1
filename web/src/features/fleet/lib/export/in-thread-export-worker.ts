// The export on the calling thread, behind the same face as the real worker: where the browser
// has no Worker (jsdom, in tests). export-client loads it only then, so the page's bundle does
// not carry the writers.
import type { ExportWorkerFactory } from "./export-worker-factory.ts";
import { exportJob } from "./export-job.ts";

export const inThreadExportWorker: ExportWorkerFactory = (answer) => {
  let stopped = false;
  const handle = exportJob((response) => {
    if (!stopped) answer(response);
  });
  return {
    send: (request) => handle(request),
    stop() {
      stopped = true;
    },
  };
};
