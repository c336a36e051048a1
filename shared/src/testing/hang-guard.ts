/**
 * A watchdog thread for a property test. fast-check's per-case timeout needs the event loop,
 * so it cannot stop a case stuck in a synchronous loop (a catastrophic regular expression,
 * an exponential search): that would hang the test run for good. The guard runs beside the
 * test on its own thread; when one case has run past the limit it writes the property, the
 * seed and the case to stderr (and to the property's report file) and ends the test
 * process, so the run fails, and says why, instead of hanging.
 */
import { Worker } from "node:worker_threads";

// Plain JavaScript, run as the worker's script: the guard needs nothing from the test.
const GUARD_SCRIPT = `
const { parentPort, workerData } = require("node:worker_threads");
const { writeSync, writeFileSync } = require("node:fs");
let running = null;
parentPort.on("message", (message) => {
  if (message.kind === "start") running = { ...message, at: Date.now() };
  else running = null;
});
setInterval(() => {
  if (!running || Date.now() - running.at < workerData.limitMs) return;
  const text =
    "\\nHANG: property \\"" + workerData.property + "\\", case " + running.index +
    " has run for more than " + workerData.limitMs + " ms without answering." +
    "\\nReplay with FUZZ_SEED=" + workerData.seed + ". Input: " + running.input + "\\n";
  writeSync(2, text);
  if (workerData.reportFile) {
    try {
      writeFileSync(workerData.reportFile, JSON.stringify({
        property: workerData.property, requestedRuns: 0, cases: running.index - 1,
        interrupted: false, timeLimitMs: null, seed: workerData.seed, durationMs: 0,
        outcomes: {}, samples: [], failure: text.trim(),
      }, null, 2));
    } catch {}
  }
  process.kill(process.pid, "SIGKILL");
}, 250);
`;

export interface HangGuard {
  /** `describe` is called only here, before the case runs, so it should be cheap. */
  caseStarted(describe: () => string): void;
  caseFinished(): void;
  stop(): void;
}

export function startHangGuard(options: {
  property: string;
  seed: number;
  limitMs: number;
  reportFile: string | undefined;
}): HangGuard {
  const worker = new Worker(GUARD_SCRIPT, { eval: true, workerData: options });
  worker.unref();
  let index = 0;
  return {
    caseStarted(describe) {
      worker.postMessage({ kind: "start", index: ++index, input: describe() });
    },
    caseFinished() {
      worker.postMessage({ kind: "finish" });
    },
    stop() {
      void worker.terminate();
    },
  };
}
