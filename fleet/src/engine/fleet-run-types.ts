// What the fleet run engine takes and gives: the page, the run session and the Node benchmark
// all drive it through these.
import type { FleetClient } from "../fleet-client.ts";
import type { RunProgress, VehicleResult } from "../results.ts";
import type { AccessLost } from "./request-failure.ts";
import type { RunTuning } from "./run-tuning.ts";

export interface FleetRunOptions {
  /** Unique normalised registrations still to answer. */
  registrations: readonly string[];
  checkCompliance: boolean;
  client: FleetClient;
  /** Awaited: a result counts as done only once this has resolved (saved). */
  onResults: (batch: VehicleResult[]) => Promise<void> | void;
  onProgress: (progress: RunProgress) => void;
  /**
   * The proxy refused the user (session ended, role changed): the run has paused itself, with
   * nothing lost and nothing to ask twice. It goes on when resumed, after they sign in again.
   */
  onAccessLost?: (lost: AccessLost) => void;
  tuning?: Partial<RunTuning>;
}

export interface RunEnd {
  status: "finished" | "cancelled";
}

export interface FleetRun {
  /** Resolves when every registration is answered, or the run is cancelled; rejects if onResults does. */
  start(): Promise<RunEnd>;
  /** Send nothing more; requests in flight finish and their results are kept. */
  pause(): void;
  /** Goes on after a pause (the user's, or one for a session that ended). */
  resume(): void;
  /**
   * The user's stop: send nothing more, keep the answers to requests in flight (for up to
   * stopGraceMs, then abort what is left), and end the run "cancelled".
   */
  cancel(): void;
  /** Abort requests in flight at once (their registrations stay unanswered) and end the run. */
  abandon(): void;
}
