// Which saved runs another tab is checking now: looked at again every few seconds, so a run
// that tab finishes or drops is offered for resuming here.
import { useEffect, useState, useSyncExternalStore } from "react";
import {
  isLive,
  sessionFor,
  sessionsVersion,
  subscribeSessions,
} from "./run-registry.ts";
import { runsHeldAnywhere } from "./run-lock.ts";

const LOOK_AGAIN_MS = 2000;

export function useRunsElsewhere(): ReadonlySet<string> {
  const sessions = useSyncExternalStore(subscribeSessions, sessionsVersion);
  const [held, setHeld] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => {
    let live = true;
    const look = () =>
      void runsHeldAnywhere().then((ids) => {
        if (!live) return;
        // Held by this tab's own sessions is not "elsewhere".
        const elsewhere = [...ids].filter((id) => !isLive(sessionFor(id)));
        setHeld((current) =>
          sameSet(current, elsewhere) ? current : new Set(elsewhere),
        );
      });
    look();
    const timer = setInterval(look, LOOK_AGAIN_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [sessions]);
  return held;
}

function sameSet(set: ReadonlySet<string>, items: string[]): boolean {
  return set.size === items.length && items.every((item) => set.has(item));
}
