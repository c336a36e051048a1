// A saved run for its page: from its live session when this page load has one (it updates as
// answers arrive), else as saved in the browser.
import { useCallback, useEffect, useState, useSyncExternalStore } from "react";
import { useSessionUser } from "../../../lib/session-user.ts";
import type { RunSession, RunSessionSnapshot } from "./engine/run-session.ts";
import type { RunProgress, SavedRun, VehicleResult } from "./fleet-types.ts";
import { sessionFor, subscribeSessions } from "./run-registry.ts";
import type { LoadedRun } from "./store/run-store.ts";
import { useRunStore } from "./use-run-store.ts";

export interface RunView {
  run: SavedRun;
  /** Updated in place while a session runs: depend on `resultsVersion`. */
  results: ReadonlyMap<string, VehicleResult>;
  resultsVersion: number;
  /** Only while this page load has a session for the run. */
  session?: RunSession;
  progress?: RunProgress;
  error?: string;
  stopping?: boolean;
  /** The run paused itself: the user's session ended, or their role changed. */
  accessLost?: RunSessionSnapshot["accessLost"];
}

export type RunState =
  | { status: "loading" }
  | { status: "missing" }
  | { status: "unavailable"; message: string }
  | { status: "ready"; view: RunView };

export function useRun(runId: string): RunState {
  const userId = useSessionUser()?.id;
  // Another user's session (theirs ended, then someone else signed in) is not shown.
  const session = useSyncExternalStore(subscribeSessions, () => {
    const found = sessionFor(runId);
    return found?.getSnapshot().run.ownerId === userId ? found : undefined;
  });
  const subscribe = useCallback(
    (listener: () => void) =>
      session ? session.subscribe(listener) : () => undefined,
    [session],
  );
  const snapshot = useSyncExternalStore(subscribe, () =>
    session?.getSnapshot(),
  );
  const storeState = useRunStore();
  const [loaded, setLoaded] = useState<{
    runId: string;
    run: LoadedRun | null;
  }>();

  useEffect(() => {
    if (session || storeState.status !== "open") return;
    let live = true;
    storeState.store.loadRun(runId).then(
      (run) => live && setLoaded({ runId, run: run ?? null }),
      () => live && setLoaded({ runId, run: null }),
    );
    return () => {
      live = false;
    };
  }, [session, storeState, runId]);

  if (session && snapshot)
    return {
      status: "ready",
      view: {
        run: snapshot.run,
        results: snapshot.results,
        resultsVersion: snapshot.resultsVersion,
        session,
        progress: snapshot.progress,
        error: snapshot.error,
        stopping: snapshot.stopping,
        accessLost: snapshot.accessLost,
      },
    };
  if (storeState.status === "unavailable")
    return { status: "unavailable", message: storeState.message };
  if (!loaded || loaded.runId !== runId) return { status: "loading" };
  if (!loaded.run) return { status: "missing" };
  return {
    status: "ready",
    view: {
      run: loaded.run.run,
      results: loaded.run.results,
      resultsVersion: 0,
    },
  };
}
