// The glue the fleet page uses (still no React): loads a saved run, works out what is left,
// runs the engine, saves every batch before anyone sees it, keeps the run's status current, and
// offers the page a store it can read with React's useSyncExternalStore.
import {
  type FleetClient,
  createFleetRun,
  type AccessLost,
  type RunTuning,
} from "@vics/fleet";
import type {
  RunProgress,
  RunStatus,
  SavedRun,
  VehicleResult,
} from "../fleet-types.ts";
import type { RunStore } from "../store/run-store.ts";
import { keyedByRun } from "./chunk-key.ts";
import { planRun } from "./run-plan.ts";

/**
 * New results are told to subscribers at most this often while a run goes (and at once when it
 * stops or ends): each telling re-renders the summary and the table over every row of the list,
 * which for 100,000 rows costs tens of milliseconds, and a fast run saves ten batches a second.
 */
const RESULTS_INTERVAL_MS = 1000;

export interface RunSessionOptions {
  store: RunStore;
  client: FleetClient;
  runId: string;
  /** "Retry the rows not checked": exactly these registrations, whose new results replace the old. */
  registrations?: readonly string[];
  tuning?: Partial<RunTuning>;
}

export interface RunSessionSnapshot {
  run: SavedRun;
  /**
   * Every saved result of the run, by registration. The same Map, updated in place (copying
   * 100,000 results per batch would be quadratic): depend on resultsVersion, not on it.
   */
  results: ReadonlyMap<string, VehicleResult>;
  resultsVersion: number;
  /** Counts cover the whole run (results saved by earlier sessions included). */
  progress: RunProgress;
  /** Why the run stopped early, in words (saving failed); its status is then "paused". */
  error?: string;
  /** The user stopped it; the answers to requests in flight are still arriving. */
  stopping?: boolean;
  /**
   * The run paused itself because the proxy refused the user: their session ended ("sign-in")
   * or their role no longer allows fleet checks ("role"). Resuming clears it.
   */
  accessLost?: AccessLost;
}

export interface RunSession {
  subscribe(listener: () => void): () => void;
  getSnapshot(): RunSessionSnapshot;
  pause(): void;
  resume(): void;
  /**
   * The user's stop: nothing more is sent, the answers to requests in flight are kept, and the
   * run is saved as "cancelled".
   */
  cancel(): void;
  /** Stop without recording an end, as a closed tab would: the run stays resumable. */
  abandon(): void;
  /** The run's status once this session's work has ended. */
  ended: Promise<RunStatus>;
}

export async function startRunSession(
  options: RunSessionOptions,
): Promise<RunSession> {
  const { store, runId } = options;
  const loaded = await store.loadRun(runId);
  if (!loaded)
    throw new Error(`No saved run ${runId}: it may have been deleted.`);
  const { results } = loaded;
  const plan = planRun(loaded.run, results, options.registrations);
  const listeners = new Set<() => void>();
  let snapshot: RunSessionSnapshot = {
    run: loaded.run,
    results,
    resultsVersion: 0,
    progress: {
      phase: "running",
      total: plan.total,
      done: plan.done,
      notChecked: plan.notChecked,
    },
  };
  const change = (next: Partial<RunSessionSnapshot>) => {
    snapshot = { ...snapshot, ...next };
    for (const listener of listeners) listener();
  };

  // Status writes go one after another, so the last one written is the last one asked for.
  let statusWrites = Promise.resolve();
  let abandoned = false;
  let over = false;
  const setStatus = (status: RunStatus): Promise<void> => {
    if (abandoned) return statusWrites;
    const updatedAt = new Date().toISOString();
    change({ run: { ...snapshot.run, status, updatedAt } });
    statusWrites = statusWrites
      .then(() => store.updateRun(runId, { status, updatedAt }))
      .catch((error: unknown) =>
        change({
          error: `The run's status could not be saved: ${describe(error)}`,
        }),
      );
    return statusWrites;
  };

  // Told by real time (Date.now), like the progress meter: it is about the page's rendering.
  let resultsToldAt = -Infinity;
  let resultsTimer: ReturnType<typeof setTimeout> | undefined;
  const tellResults = () => {
    clearTimeout(resultsTimer);
    resultsTimer = undefined;
    resultsToldAt = Date.now();
    change({ resultsVersion: snapshot.resultsVersion + 1 });
  };
  const tellResultsSoon = () => {
    if (resultsTimer !== undefined) return;
    const wait = resultsToldAt + RESULTS_INTERVAL_MS - Date.now();
    if (wait <= 0) tellResults();
    else resultsTimer = setTimeout(tellResults, wait);
  };
  const tellPendingResults = () => {
    if (resultsTimer !== undefined) tellResults();
  };

  const engine = createFleetRun({
    registrations: plan.registrations,
    checkCompliance: loaded.run.checkCompliance,
    // The same chunk after a reload carries the same key: the proxy answers it (decision 028).
    client: keyedByRun(options.client, runId),
    tuning: options.tuning,
    async onResults(batch) {
      await store.saveResults(runId, batch);
      for (const result of batch) results.set(result.registration, result);
      tellResultsSoon();
    },
    onAccessLost(lost) {
      if (abandoned || over) return;
      change({ accessLost: lost });
      void setStatus("paused");
    },
    onProgress(progress) {
      if (abandoned) return;
      // Paused, waiting or over: the page shows every result saved so far.
      if (progress.phase !== "running") tellPendingResults();
      change({
        progress: {
          ...progress,
          total: plan.total,
          done: plan.done + progress.done,
          notChecked: plan.notChecked + progress.notChecked,
        },
      });
    },
  });

  await setStatus("running");
  const ended = engine.start().then(
    async ({ status }) => {
      over = true;
      tellPendingResults();
      await setStatus(status);
      return snapshot.run.status;
    },
    async (error: unknown) => {
      over = true;
      tellPendingResults();
      change({
        error: `The run stopped because its results could not be saved: ${describe(error)}`,
      });
      await setStatus("paused");
      return snapshot.run.status;
    },
  );

  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => snapshot,
    pause() {
      if (over || snapshot.run.status === "paused") return;
      engine.pause();
      void setStatus("paused");
    },
    resume() {
      if (over || snapshot.run.status !== "paused") return;
      if (snapshot.accessLost) change({ accessLost: undefined });
      engine.resume();
      void setStatus("running");
    },
    cancel() {
      if (over || snapshot.stopping) return;
      change({ stopping: true });
      engine.cancel();
    },
    abandon() {
      abandoned = true;
      clearTimeout(resultsTimer);
      engine.abandon();
    },
    ended,
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
