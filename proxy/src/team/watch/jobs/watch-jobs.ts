// What runs the sweeps (decision 043): pg-boss where the team runs PostgreSQL, an in-process
// schedule (croner) on the embedded SQLite. Both run the same handler, daily at the admin's UK
// time and on demand, one sweep at a time, retried when one fails.

/** "Check this fleet now": the fleet, and its vehicles as they are now. */
export interface FleetCheck {
  fleetId: string;
  registrations: string[];
  /**
   * These are vehicles just saved to the fleet (its first check, or a new list's additions):
   * queued even while a check of the fleet is queued or under way, since that check covers
   * only the vehicles it was given.
   */
  added?: boolean;
}

export interface WatchJobs {
  start(): Promise<void>;
  /**
   * A sweep now: of one fleet's vehicles, or of every watched vehicle. A fleet's is asked for
   * once at a time: while one is queued or under way (retries included), nothing more is
   * queued and the answer says `alreadyRunning`, except for vehicles just `added`, which are
   * always queued.
   */
  checkNow(fleet?: FleetCheck): Promise<{ alreadyRunning: boolean }>;
  /** Whether a check of this fleet is queued or under way (retries included). */
  checking(fleetId: string): Promise<boolean>;
  /** Runs the alert deliveries soon (decision 044): after a replay; they also run every minute. */
  deliverNow(): Promise<void>;
  /** The admin set another daily time ("06:30", UK time). */
  reschedule(time: string): Promise<void>;
  /** Stops scheduling; a sweep under way is abandoned (its answered batches are kept). */
  stop(): Promise<void>;
  /**
   * The sweeps asked for and not yet started (retries waiting included), and since when the
   * oldest of them waits (ms), for the metrics. Absent from a stand-in that queues nothing.
   */
  queuedSweeps?(): Promise<QueuedSweeps>;
  /** Whether the sweeps run: only once start() has succeeded; else why not, for the admin. */
  state(): JobsState;
}

export interface QueuedSweeps {
  depth: number;
  /** Undefined when none waits. */
  oldestAt?: number;
}

export type JobsState = { running: true } | { running: false; reason: string };

/** An engine as it is written; openWatchJobs adds what it knows of its start (`state`). */
export type JobEngine = Omit<WatchJobs, "state">;

/** Both engines: each says what waits in its queue. */
export type QueuingJobEngine = JobEngine &
  Required<Pick<WatchJobs, "queuedSweeps">>;

/** Tries of a sweep that fails before it is given up (and, on PostgreSQL, dead-lettered). */
export const SWEEP_ATTEMPTS = 3;
