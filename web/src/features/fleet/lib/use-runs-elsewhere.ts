// Which saved runs another tab is checking now: looked at again every few seconds, so a run
// that tab finishes or drops is offered for resuming here.
import { useEffect, useState, useSyncExternalStore } from "react";
import { sessionsVersion, subscribeSessions } from "./run-registry.ts";
import { runsHeldElsewhere } from "./run-lock.ts";

const LOOK_AGAIN_MS = 2000;

export function useRunsElsewhere(
  lookAgainMs = LOOK_AGAIN_MS,
): ReadonlySet<string> {
  // This tab's sessions starting or ending: another tab may have let go of a run meanwhile.
  const sessions = useSyncExternalStore(subscribeSessions, sessionsVersion);
  const [held, setHeld] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => {
    let live = true;
    const look = () =>
      void runsHeldElsewhere().then((ids) => {
        if (!live) return;
        setHeld((current) => (sameSet(current, ids) ? current : ids));
      });
    look();
    const timer = setInterval(look, lookAgainMs);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [sessions, lookAgainMs]);
  return held;
}

function sameSet(
  set: ReadonlySet<string>,
  other: ReadonlySet<string>,
): boolean {
  return set.size === other.size && [...other].every((item) => set.has(item));
}
