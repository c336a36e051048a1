// What runs the sweeps (decision 043): pg-boss where the team runs PostgreSQL, an in-process
// schedule (croner) on the embedded SQLite. Both run the same handler, daily at the admin's UK
// time and on demand, one sweep at a time, retried when one fails.

export interface WatchJobs {
  start(): Promise<void>;
  /** A sweep now: of the given vehicles (one fleet's), or of every watched vehicle. */
  checkNow(registrations?: string[]): Promise<void>;
  /** The admin set another daily time ("06:30", UK time). */
  reschedule(time: string): Promise<void>;
  /** Stops scheduling; a sweep under way is abandoned (its answered batches are kept). */
  stop(): Promise<void>;
}

/** Tries of a sweep that fails before it is given up (and, on PostgreSQL, dead-lettered). */
export const SWEEP_ATTEMPTS = 3;
