// One tab at a time checks a run: a Web Lock per run, held for as long as the tab's session
// lives, so a second tab (or window) neither resumes it nor sends its vehicles again; it says
// the run is going on elsewhere. Browsers without Web Locks check in whichever tab asks.
import type { RunSession } from "./engine/run-session.ts";

const PREFIX = "vics-fleet-run:";

class RunElsewhereError extends Error {
  constructor() {
    super(
      "This check is running in another tab or window. Carry on there, or close it and try again.",
    );
    this.name = "RunElsewhereError";
  }
}

function locks(): LockManager | undefined {
  return typeof navigator === "undefined" ? undefined : navigator.locks;
}

/** Runs `start` holding the run's lock, and keeps holding it until the session ends. */
export function withRunLock(
  runId: string,
  start: () => Promise<RunSession>,
): Promise<RunSession> {
  const manager = locks();
  if (!manager) return start();
  return new Promise<RunSession>((resolve, reject) => {
    manager
      .request(PREFIX + runId, { ifAvailable: true }, async (lock) => {
        if (!lock) return reject(new RunElsewhereError());
        let session: RunSession;
        try {
          session = await start();
        } catch (error) {
          return reject(error);
        }
        resolve(session);
        await session.ended;
      })
      .catch(reject);
  });
}

/** The runs some tab of this browser is checking now (this one's included). */
export async function runsHeldAnywhere(): Promise<Set<string>> {
  const manager = locks();
  if (!manager) return new Set();
  const { held = [] } = await manager.query();
  return new Set(
    held
      .map((lock) => lock.name ?? "")
      .filter((name) => name.startsWith(PREFIX))
      .map((name) => name.slice(PREFIX.length)),
  );
}
