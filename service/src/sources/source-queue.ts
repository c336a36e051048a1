// One register's queue (decision 059): one job a vehicle however many checks ask, single checks
// first, then bulk checks, then background refreshes; a few workers take jobs as the pacer
// allows. A job always settles, whatever fails: the register, the pacer's store, the database.
import type { Logger } from "@vics/server-kit/logger";
import {
  type FetchedFactStore,
  type FetchedFacts,
  StoreBusyError,
} from "../store/fetched-facts.ts";
import type { PaceVerdict } from "./pacer.ts";
import type { PacedSource, Unrefreshed } from "./paced-source.ts";
import { SourceError, type SourceAnswer } from "./source.ts";
import { SourceOutcomes, withoutPlate } from "./source-outcomes.ts";

const PRIORITIES = ["check", "bulk", "background"] as const;
export type Priority = (typeof PRIORITIES)[number];

export type Outcome = { ok: true } | { ok: false; why: Unrefreshed };

interface Job {
  registration: string;
  promise: Promise<Outcome>;
  settle: (outcome: Outcome) => void;
  /** Tries so far; a failure the register may get over is tried again, a few times. */
  tries: number;
}

export interface QueueDeps {
  store: FetchedFactStore;
  now: () => Date;
  logger: Logger;
  /** Requests each source sends at once; the pacer spaces them. */
  concurrency?: number;
  /** Jobs kept per register at most; MOST_QUEUED unless said (a test's smaller one). */
  mostQueued?: number;
  /** Told of each answer once it is stored, with the kinds it marked fresh. */
  stored?: (fetched: FetchedFacts) => void;
}

/**
 * How long a register is left alone after an error it did not time, when it says nothing; a
 * check's 503 asks its client to wait as long (http/problems.ts).
 */
export const PAUSE_MS = {
  quota: 60_000,
  maintenance: 300_000,
  credentials: 300_000,
} as const;
const PAUSES: Partial<Record<SourceError["kind"], number>> = PAUSE_MS;

/** Failures a later try may get over: it is queued again, in the background. */
const TRANSIENT = new Set<Unrefreshed["reason"]>([
  "quota",
  "maintenance",
  "unavailable",
]);
const MOST_TRIES = 3;
/** Requests in flight per register, at most. */
const MAX_CONCURRENCY = 32;
/** Jobs queued per register, at most: past it a request is refused as "waiting", not kept. */
const MOST_QUEUED = 200_000;
/** Plates a register did not know, remembered so it is not asked again within its window. */
const NOT_FOUND_KEPT = 100_000;
/** Answers kept while the database is busy (another process's import), at most. */
const UNWRITTEN_KEPT = 10_000;

export class SourceQueue {
  private readonly queues: Record<Priority, Map<string, Job>> = {
    check: new Map(),
    bulk: new Map(),
    background: new Map(),
  };
  private readonly running = new Map<string, Job>();
  private readonly working = new Set<Promise<void>>();
  private readonly notFound = new Map<string, number>();
  private readonly unwritten: FetchedFacts[] = [];
  private writeTimer: NodeJS.Timeout | undefined;
  private writeDelayMs = 250;
  /** Until when the day's quota is spent: requests are refused at once, no worker started. */
  private quotaSpentUntil = 0;
  private readonly stop = new AbortController();
  private readonly outcomes: SourceOutcomes;
  private readonly paced: PacedSource;
  private readonly deps: QueueDeps;

  constructor(paced: PacedSource, deps: QueueDeps) {
    this.paced = paced;
    this.deps = deps;
    this.outcomes = new SourceOutcomes(paced.source.name, {
      ...deps,
      pacer: paced.pacer,
    });
  }

  private get name() {
    return this.paced.source.name;
  }

  private get mostQueued() {
    return this.deps.mostQueued ?? MOST_QUEUED;
  }

  request(registration: string, priority: Priority): Promise<Outcome> {
    const refused = this.refusal(registration);
    if (refused) return Promise.resolve(refused);
    if (this.notFoundLately(registration)) return Promise.resolve({ ok: true });
    const known =
      this.running.get(registration) ??
      PRIORITIES.map((level) => this.queues[level].get(registration)).find(
        Boolean,
      );
    if (known) {
      this.promote(known, priority);
      return known.promise;
    }
    if (this.queued() >= this.mostQueued) {
      this.deps.logger.warn("source: queue full, request not kept", {
        source: this.name,
        queued: this.mostQueued,
      });
      return Promise.resolve(this.waiting());
    }
    return this.enqueue(registration, priority, 0).promise;
  }

  queued(): number {
    return PRIORITIES.reduce((sum, level) => sum + this.queues[level].size, 0);
  }

  /** Stops taking jobs, settles every job, and waits for the workers to end. */
  async close(): Promise<void> {
    this.stop.abort();
    clearTimeout(this.writeTimer);
    for (const queue of [...Object.values(this.queues), this.running])
      for (const job of queue.values()) job.settle(this.waiting());
    await Promise.all(this.working);
  }

  private waiting(): Outcome {
    return { ok: false, why: { source: this.name, reason: "waiting" } };
  }

  /** Closed, or the day's quota spent: an answer at once, without a worker. */
  private refusal(registration: string): Outcome | undefined {
    if (this.stop.signal.aborted) return this.waiting();
    const now = this.deps.now().getTime();
    if (this.quotaSpentUntil <= now) return undefined;
    void this.outcomes.refusedForQuota([registration]);
    return {
      ok: false,
      why: {
        source: this.name,
        reason: "day-quota",
        retryAfterMs: this.quotaSpentUntil - now,
      },
    };
  }

  private promote(job: Job, priority: Priority): void {
    const at = PRIORITIES.indexOf(priority);
    for (const level of PRIORITIES.slice(at + 1))
      if (this.queues[level].delete(job.registration)) {
        this.queues[priority].set(job.registration, job);
        return;
      }
  }

  private enqueue(registration: string, priority: Priority, tries: number) {
    let settle!: (outcome: Outcome) => void;
    const promise = new Promise<Outcome>((resolve) => (settle = resolve));
    const job: Job = { registration, promise, settle, tries };
    this.queues[priority].set(registration, job);
    this.wake();
    return job;
  }

  private notFoundLately(registration: string): boolean {
    const until = this.notFound.get(registration);
    if (until === undefined) return false;
    if (until > this.deps.now().getTime()) return true;
    this.notFound.delete(registration);
    return false;
  }

  /** Not known to the register, refused by it, or too little to add: not asked again soon. */
  private rememberNotFound(registration: string): void {
    this.notFound.delete(registration);
    this.notFound.set(
      registration,
      this.deps.now().getTime() + this.paced.freshForMs,
    );
    if (this.notFound.size > NOT_FOUND_KEPT)
      this.notFound.delete(this.notFound.keys().next().value!);
  }

  private wake(): void {
    // Enough requests in flight to reach the rate when each takes up to a second.
    const limit =
      this.deps.concurrency ??
      Math.min(MAX_CONCURRENCY, Math.max(2, Math.ceil(this.paced.perSecond)));
    // A worker takes its first job before its first await, so the queue shrinks at once.
    while (this.working.size < limit && this.queued() > 0) {
      const worker: Promise<void> = this.work()
        .catch((error: unknown) =>
          this.deps.logger.error("source: refresh worker failed", {
            source: this.name,
            message: error instanceof Error ? error.message : String(error),
          }),
        )
        .finally(() => {
          this.working.delete(worker);
          // A worker that ended on an error leaves the others to go on.
          if (!this.stop.signal.aborted && this.queued() > 0) this.wake();
        });
      this.working.add(worker);
    }
  }

  private next(): Job | undefined {
    for (const level of PRIORITIES) {
      const first = this.queues[level].values().next();
      if (!first.done) {
        this.queues[level].delete(first.value.registration);
        return first.value;
      }
    }
    return undefined;
  }

  /** Takes a job, then a slot for it: an idle worker spends none of the day's quota. */
  private async work(): Promise<void> {
    const { signal } = this.stop;
    while (!signal.aborted) {
      const job = this.next();
      if (!job) return;
      this.running.set(job.registration, job);
      try {
        const verdict = await this.slot(signal);
        if (signal.aborted) return;
        if (verdict === "uncounted") {
          this.settle(job, {
            ok: false,
            why: { source: this.name, reason: "unavailable" },
          });
          continue;
        }
        if (!verdict.go) {
          this.quotaSpent(job, verdict);
          return;
        }
        this.settle(job, await this.fetchOne(job.registration, signal));
      } finally {
        this.running.delete(job.registration);
      }
    }
  }

  /** The pacer's verdict, or "uncounted" when its store (Redis) cannot count: nothing goes unpaced. */
  private async slot(signal: AbortSignal): Promise<PaceVerdict | "uncounted"> {
    try {
      return await this.paced.pacer.acquire({ signal });
    } catch (error) {
      if (!signal.aborted)
        this.deps.logger.warn("source: pace not counted", {
          source: this.name,
          message: error instanceof Error ? error.message : String(error),
        });
      return "uncounted";
    }
  }

  /** Settles the job; a failure the register may get over is tried again in the background. */
  private settle(job: Job, outcome: Outcome): void {
    job.settle(outcome);
    if (outcome.ok || !TRANSIENT.has(outcome.why.reason)) return;
    if (job.tries + 1 >= MOST_TRIES || this.stop.signal.aborted) return;
    if (this.queued() >= this.mostQueued) return;
    const { registration } = job;
    if (PRIORITIES.some((level) => this.queues[level].has(registration)))
      return;
    // Behind what is queued: the pacer's pause or back-off spaces the tries.
    this.running.delete(registration);
    this.enqueue(registration, "background", job.tries + 1);
  }

  /** The day's quota is spent: nothing queued can go until it resets, and the admin is told. */
  private quotaSpent(job: Job, verdict: Extract<PaceVerdict, { go: false }>) {
    const now = this.deps.now().getTime();
    this.quotaSpentUntil = verdict.retryAtMs;
    const why: Unrefreshed = {
      source: this.name,
      reason: "day-quota",
      retryAfterMs: Math.max(0, this.quotaSpentUntil - now),
    };
    const refused = [job.registration];
    job.settle({ ok: false, why });
    for (const level of PRIORITIES) {
      for (const queued of this.queues[level].values()) {
        refused.push(queued.registration);
        queued.settle({ ok: false, why });
      }
      this.queues[level].clear();
    }
    void this.outcomes.refusedForQuota(refused);
  }

  /** One look-up, stored as it arrives. Never rejects. */
  private async fetchOne(
    registration: string,
    signal: AbortSignal,
  ): Promise<Outcome> {
    let answer: SourceAnswer;
    try {
      answer = await this.paced.source.lookUp(registration, signal);
    } catch (error) {
      if (signal.aborted) return this.waiting();
      return this.failed(error, registration);
    }
    await this.paced.pacer.success().catch(() => {});
    if (!answer.found) {
      this.rememberNotFound(registration);
      await this.outcomes.success();
      return { ok: true };
    }
    const fetched: FetchedFacts = {
      source: this.name,
      fetchedAt: answer.answeredAt.toISOString(),
      answer: this.trusted(answer),
      asked: this.paced.kinds,
    };
    try {
      const counts = await this.deps.store.recordFetched([fetched]);
      // A vehicle VICS does not hold, answered without the details to add it.
      if (counts.skipped > 0) this.rememberNotFound(registration);
      else this.deps.stored?.(fetched);
    } catch (error) {
      if (!(error instanceof StoreBusyError)) {
        this.deps.logger.error("source: answer not stored", {
          source: this.name,
          message: withoutPlate(
            error instanceof Error ? error.message : String(error),
            registration,
          ),
        });
        return { ok: false, why: { source: this.name, reason: "unavailable" } };
      }
      // Another process (an import) holds the database: the answer waits in memory.
      this.keepUnwritten(fetched);
      return this.waiting();
    }
    await this.outcomes.success();
    return { ok: true };
  }

  /** The answer without the kinds this source is not trusted on here. */
  private trusted(
    answer: Extract<SourceAnswer, { found: true }>,
  ): Extract<SourceAnswer, { found: true }> {
    const { kinds } = this.paced;
    return {
      ...answer,
      ...(!kinds.includes("tax") && { tax: undefined }),
      ...(!kinds.includes("mot") && { mot: undefined }),
    };
  }

  private keepUnwritten(fetched: FetchedFacts): void {
    if (this.unwritten.length >= UNWRITTEN_KEPT) {
      this.deps.logger.warn("source: database busy, answer dropped", {
        source: this.name,
      });
      return;
    }
    this.unwritten.push(fetched);
    this.writeTimer ??= setTimeout(
      () => void this.writeUnwritten(),
      this.writeDelayMs,
    );
  }

  /** Writes the kept answers once the database is free, trying again later while it is not. */
  private async writeUnwritten(): Promise<void> {
    this.writeTimer = undefined;
    const batch = this.unwritten.splice(0, 500);
    if (batch.length === 0 || this.stop.signal.aborted) return;
    try {
      await this.deps.store.recordFetched(batch);
      this.writeDelayMs = 250;
      for (const fetched of batch) this.deps.stored?.(fetched);
    } catch (error) {
      if (error instanceof StoreBusyError) {
        this.unwritten.unshift(...batch);
        this.writeDelayMs = Math.min(this.writeDelayMs * 2, 5_000);
      } else
        this.deps.logger.error("source: kept answers not stored", {
          source: this.name,
          answers: batch.length,
        });
    }
    if (this.unwritten.length > 0)
      this.writeTimer = setTimeout(
        () => void this.writeUnwritten(),
        this.writeDelayMs,
      );
  }

  /** A failed look-up: paused or backed off as it says, the admin told. Never rejects. */
  private async failed(error: unknown, registration: string): Promise<Outcome> {
    const known =
      error instanceof SourceError
        ? error
        : new SourceError(this.name, "unavailable", String(error), {
            cause: error,
          });
    // The register will not take this registration: as a vehicle it does not know.
    if (known.kind === "refused") {
      this.rememberNotFound(registration);
      return { ok: true };
    }
    const { pacer } = this.paced;
    const pause = known.retryAfterMs ?? PAUSES[known.kind];
    if (known.kind === "unavailable") await pacer.failure().catch(() => {});
    else if (pause !== undefined) await pacer.pauseFor(pause).catch(() => {});
    await this.outcomes.failure(
      known.kind,
      withoutPlate(known.message, registration),
    );
    return {
      ok: false,
      why: {
        source: this.name,
        reason: known.kind,
        ...(pause !== undefined && { retryAfterMs: pause }),
      },
    };
  }
}
