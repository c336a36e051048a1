// One tab at a time checks a run: a Web Lock per run, held for as long as the tab's session
// lives, so a second tab (or window) neither resumes it nor sends its vehicles again; it says
// the run is going on elsewhere. Browsers without Web Locks check in whichever tab asks.
import type { RunSession } from "./engine/run-session.ts";

const PREFIX = "vics-fleet-run:";

/**
 * The runs whose lock this tab has asked for or holds, from the request until the browser has
 * released it. A session's state cannot say this: it ends (and a new one starts) a moment before
 * or after its lock is let go, and the browser's list of held locks names no tab.
 */
const ownLocks = new Map<string, Promise<unknown>>();

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
  // A retry straight after the run ends: this tab's last lock on it may not be let go yet.
  const previous = ownLocks.get(runId) ?? Promise.resolve();
  return new Promise<RunSession>((resolve, reject) => {
    const requested = previous
      .then(() =>
        manager.request(PREFIX + runId, { ifAvailable: true }, async (lock) => {
          if (!lock) return reject(new RunElsewhereError());
          let session: RunSession;
          try {
            session = await start();
          } catch (error) {
            return reject(error);
          }
          resolve(session);
          await session.ended;
        }),
      )
      .catch(reject)
      // request() settles once the lock is released: only then is it no longer this tab's.
      .finally(() => {
        if (ownLocks.get(runId) === requested) ownLocks.delete(runId);
      });
    ownLocks.set(runId, requested);
  });
}

/** The runs another tab (or window) of this browser is checking now. */
export async function runsHeldElsewhere(): Promise<Set<string>> {
  const manager = locks();
  if (!manager) return new Set();
  // A lock of this tab's may be let go while the browser answers: its answer may still name it.
  const ownBefore = new Set(ownLocks.keys());
  const { held = [] } = await manager.query();
  return new Set(
    held
      .map((lock) => lock.name ?? "")
      .filter((name) => name.startsWith(PREFIX))
      .map((name) => name.slice(PREFIX.length))
      .filter((runId) => !ownBefore.has(runId) && !ownLocks.has(runId)),
  );
}
