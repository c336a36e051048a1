// Vitest's global setup for the runs whose tests make temporary folders (server-kit, service,
// proxy, scripts and bench): every folder a run's tests and the servers they start make under
// the system's temporary folder goes into one folder of the run's own, removed when the run
// ends. Many helpers make a folder a test and never remove it (a web root, a store, a key
// file); without this, each full run left about a thousand behind in /tmp.
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Runs once, in Vitest's main process, before the test workers start: they inherit TMPDIR. */
export default function setup(): () => void {
  const before = process.env.TMPDIR;
  const run = mkdtempSync(join(tmpdir(), "vics-test-run-"));
  // Open to every user, as /tmp is: the PostgreSQL tests hand folders in it to `postgres`.
  chmodSync(run, 0o1777);
  process.env.TMPDIR = run;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    // A process the run left behind may still be writing in it: retried, then only told, so a
    // green run stays green and the folder is named for whoever cleans up.
    try {
      rmSync(run, {
        recursive: true,
        force: true,
        maxRetries: 5,
        retryDelay: 200,
      });
    } catch (error) {
      console.warn(
        `Could not remove the test run's temporary folder ${run}: ${(error as Error).message}`,
      );
    }
  };
}
