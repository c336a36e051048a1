// The requests a run still has to make. Chunks are cut from the registrations lazily (a
// 100,000-vehicle run holds no 100 jobs up front); retries, split halves and leftover items
// wait in a short list that is looked at first, since they are older work.

export type Part = "insurance" | "compliance";

export interface Job {
  /**
   * In a compliance run, a bulk compliance job answers insurance too, from the items' policy
   * extension (decision 021): one request per chunk.
   */
  part: Part;
  /** A compliance check of one vehicle (GET), for an upstream without bulk compliance. */
  single: boolean;
  registrations: readonly string[];
  /** Failed tries so far: 5xx, network, timeout, broken answers, "temporarily unavailable". */
  attempts: number;
  /** Consecutive 429s met by this registration on its own (only counted for one registration). */
  throttled: number;
  /** Not to be sent before this time (backoff). */
  readyAt: number;
  /** A half of a chunk refused with 429, sent to learn whether the window is spent (refusal-triage.ts). */
  probe?: Probe;
  /** A lone vehicle refused while others were answered: one more refusal ends it "not checked". */
  isolated?: boolean;
}

/** The halves of one refused chunk, sent at once. */
export interface Probe {
  retryAfterMs: number;
  /** Halves not back yet. */
  pending: number;
  /** Some request was answered since they went: the 429 was about the list, not the window. */
  answered: boolean;
  /** Parts refused, waiting for the probe's word. */
  held: Job[];
}

/** A bulk compliance job settles both parts of each registration it carries. */
export function answersInsurance(job: Job): boolean {
  return job.part === "compliance" && !job.single;
}

export function newJob(
  part: Part,
  registrations: readonly string[],
  single = false,
): Job {
  return { part, single, registrations, attempts: 0, throttled: 0, readyAt: 0 };
}

export class JobQueue {
  private readonly waiting: Job[] = [];
  private singles: Job[] = [];
  private singlesHead = 0;
  private cursor = 0;
  private singleCompliance = false;
  private readonly registrations: readonly string[];
  private readonly chunkSize: number;
  private readonly checkCompliance: boolean;

  constructor(
    registrations: readonly string[],
    chunkSize: number,
    checkCompliance: boolean,
  ) {
    this.registrations = registrations;
    this.chunkSize = chunkSize;
    this.checkCompliance = checkCompliance;
  }

  /** From now on compliance is asked one vehicle at a time (the upstream lacks bulk compliance). */
  useSingleCompliance(): void {
    this.singleCompliance = true;
  }

  /** A retry, a split half or leftover items. */
  add(job: Job): void {
    this.waiting.push(job);
  }

  /** A job taken but not sent (the rate limit said no): first in line again. */
  putBack(job: Job): void {
    this.waiting.unshift(job);
  }

  get isEmpty(): boolean {
    return (
      this.waiting.length === 0 &&
      this.singlesHead >= this.singles.length &&
      this.cursor >= this.registrations.length
    );
  }

  /** The waiting job that may go first, when none may go now. */
  nextWaiting(): Job | undefined {
    let earliest: Job | undefined;
    for (const job of this.waiting) {
      if (earliest === undefined || job.readyAt < earliest.readyAt)
        earliest = job;
    }
    return earliest;
  }

  /** The next job that may be sent at `now`, if any. */
  take(now: number): Job | undefined {
    for (;;) {
      const job = this.takeReady(now);
      if (!job) return undefined;
      if (job.part === "compliance" && !job.single && this.singleCompliance) {
        // Single checks carry no policy: the chunk's insurance goes in bulk of its own.
        this.queueSingles(job.registrations);
        return newJob("insurance", job.registrations);
      }
      return job;
    }
  }

  private takeReady(now: number): Job | undefined {
    const index = this.waiting.findIndex((job) => job.readyAt <= now);
    if (index >= 0) return this.waiting.splice(index, 1)[0];
    const single = this.singles[this.singlesHead];
    if (single) {
      this.singlesHead += 1;
      return single;
    }
    if (this.cursor >= this.registrations.length) return undefined;
    const chunk = this.registrations.slice(
      this.cursor,
      this.cursor + this.chunkSize,
    );
    this.cursor += chunk.length;
    if (!this.checkCompliance) return newJob("insurance", chunk);
    if (!this.singleCompliance) return newJob("compliance", chunk);
    this.queueSingles(chunk);
    return newJob("insurance", chunk);
  }

  private queueSingles(registrations: readonly string[]): void {
    if (this.singlesHead >= this.singles.length) {
      this.singles = [];
      this.singlesHead = 0;
    }
    for (const registration of registrations) {
      this.singles.push(newJob("compliance", [registration], true));
    }
  }
}
