// Keeps the facts the live sources give fresh (docs/sources.md): a check asks for its vehicles,
// the refresher finds which facts are older than their source's window, and fetches those,
// paced to the source's limits, one request per vehicle per source however many checks ask at
// once. Each answer is stored as it arrives, so a crash loses at most the requests in flight.
import type { Logger } from "@vics/shared/server/logger";
import type { FetchedFactStore, Freshness } from "../store/fetched-facts.ts";
import type { Pacer, PaceVerdict } from "./pacer.ts";
import {
  type FactKind,
  type LiveSource,
  SourceError,
  type SourceAnswer,
  type SourceName,
} from "./source.ts";

/** A source as the refresher runs it. */
export interface PacedSource {
  source: LiveSource;
  pacer: Pacer;
  /** A fact younger than this is used as it is. */
  freshForMs: number;
  /**
   * The kinds this source is asked for and trusted on: DVLA's MOT expiry is not stored when
   * DVSA's history is on, since each vehicle's MOT would then be fetched twice a window.
   */
  kinds: readonly FactKind[];
  /** When its client secret expires, where it has one (DVSA's last two years). */
  secretExpires?: string;
  /** Its pace's requests a second, for how many to keep in flight. */
  perSecond: number;
}

/** The fact whose age says when a source's answer for a vehicle is due again. */
export const leadingKind = (paced: PacedSource): FactKind =>
  paced.kinds[0] ?? "vehicle";

export type FreshnessMap = Map<string, Partial<Record<FactKind, Freshness>>>;

/** Why a vehicle's facts could not be brought up to date; absent for the fresh ones. */
export interface Unrefreshed {
  source: SourceName;
  /** "waiting": still queued or in flight when the budget ran out. */
  reason: "waiting" | "day-quota" | SourceError["kind"];
  /** When a retry may succeed, as the provider or the pacer said. */
  retryAfterMs?: number;
}

export interface RefreshReport {
  /** Per registration, what each source last said of it; read after the refresh. */
  freshness: FreshnessMap;
  /** Registrations some source could not refresh within the budget, and why. */
  unrefreshed: Map<string, Unrefreshed>;
}

export interface Refresher {
  readonly sources: readonly PacedSource[];
  /**
   * Brings the given vehicles' facts up to date: waits at most `budgetMs`, then answers what it
   * knows; what is still queued goes on in the background. Never rejects for a source's fault.
   */
  refresh(
    registrations: readonly string[],
    options: { budgetMs: number; background?: boolean },
  ): Promise<RefreshReport>;
  /**
   * Queues the stale facts of these vehicles behind every check, without waiting: the watched
   * fleets' refresh ahead of their daily sweep. Says how many requests it queued, and how many
   * vehicles were fresh already.
   */
  queue(
    registrations: readonly string[],
  ): Promise<{ queued: number; fresh: number }>;
  /** Stops the workers; requests in flight are abandoned, stored answers stay stored. */
  close(): Promise<void>;
}

export interface RefresherDeps {
  store: FetchedFactStore;
  sources: readonly PacedSource[];
  now: () => Date;
  logger: Logger;
  /** Requests each source sends at once; the pacer spaces them. */
  concurrency?: number;
}

type Outcome = { ok: true } | { ok: false; why: Unrefreshed };

interface Job {
  registration: string;
  promise: Promise<Outcome>;
  settle: (outcome: Outcome) => void;
}

/** How long a source is left alone after errors that pacing cannot fix, when it says nothing. */
const PAUSE_MS: Partial<Record<SourceError["kind"], number>> = {
  quota: 60_000,
  maintenance: 300_000,
  credentials: 60_000,
};

/** Requests in flight per register, at most. */
const MAX_CONCURRENCY = 32;

/** Plates a register did not know, remembered per source so it is not asked again at once. */
const NOT_FOUND_KEPT = 100_000;

/** A source's last outcome is written at most this often while it keeps succeeding. */
const OUTCOME_EVERY_MS = 10_000;

/** One queue per source: urgent checks first, then background refreshes; one job a vehicle. */
class SourceQueue {
  private readonly urgent = new Map<string, Job>();
  private readonly background = new Map<string, Job>();
  private readonly running = new Map<string, Job>();
  private readonly working = new Set<Promise<void>>();
  private lastOkWritten = 0;
  private readonly stop = new AbortController();
  private readonly paced: PacedSource;
  private readonly deps: RefresherDeps;

  constructor(paced: PacedSource, deps: RefresherDeps) {
    this.paced = paced;
    this.deps = deps;
  }

  request(registration: string, urgent: boolean): Promise<Outcome> {
    if (this.notFoundLately(registration)) return Promise.resolve({ ok: true });
    const known =
      this.running.get(registration) ??
      this.urgent.get(registration) ??
      this.background.get(registration);
    if (known) {
      if (urgent && this.background.delete(registration))
        this.urgent.set(registration, known);
      return known.promise;
    }
    let settle!: (outcome: Outcome) => void;
    const promise = new Promise<Outcome>((resolve) => (settle = resolve));
    const job = { registration, promise, settle };
    (urgent ? this.urgent : this.background).set(registration, job);
    this.wake();
    return promise;
  }

  /**
   * A register that does not know a vehicle (a plate VICS holds from an import, or none) is not
   * asked again within its window. Kept in memory, at most NOT_FOUND_KEPT plates: a replica
   * that restarts asks once more.
   */
  private readonly notFound = new Map<string, number>();

  private notFoundLately(registration: string): boolean {
    const until = this.notFound.get(registration);
    if (until === undefined) return false;
    if (until > this.deps.now().getTime()) return true;
    this.notFound.delete(registration);
    return false;
  }

  private rememberNotFound(registration: string): void {
    this.notFound.delete(registration);
    this.notFound.set(
      registration,
      this.deps.now().getTime() + this.paced.freshForMs,
    );
    if (this.notFound.size > NOT_FOUND_KEPT)
      this.notFound.delete(this.notFound.keys().next().value!);
  }

  /** Stops taking jobs, settles the waiting ones, and waits for the workers to end. */
  async close(): Promise<void> {
    this.stop.abort();
    for (const queue of [this.urgent, this.background, this.running])
      for (const job of queue.values())
        job.settle({
          ok: false,
          why: { source: this.paced.source.name, reason: "waiting" },
        });
    await Promise.all(this.working);
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
            source: this.paced.source.name,
            message: error instanceof Error ? error.message : String(error),
          }),
        )
        .finally(() => this.working.delete(worker));
      this.working.add(worker);
    }
  }

  private queued(): number {
    return this.urgent.size + this.background.size;
  }

  private next(): Job | undefined {
    for (const queue of [this.urgent, this.background]) {
      const first = queue.values().next();
      if (!first.done) {
        queue.delete(first.value.registration);
        return first.value;
      }
    }
    return undefined;
  }

  /** Takes a job, then a slot for it: an idle worker spends none of the day's quota. */
  private async work(): Promise<void> {
    const { signal } = this.stop;
    const name = this.paced.source.name;
    while (!signal.aborted) {
      const job = this.next();
      if (!job) return;
      this.running.set(job.registration, job);
      try {
        let verdict: PaceVerdict;
        try {
          verdict = await this.paced.pacer.acquire({ signal });
        } catch (error) {
          if (signal.aborted) return;
          // The pace cannot be counted (its Redis is down): nothing goes unpaced.
          this.deps.logger.warn("source: pace not counted", {
            source: name,
            message: String(error),
          });
          job.settle({
            ok: false,
            why: { source: name, reason: "unavailable" },
          });
          continue;
        }
        if (!verdict.go) {
          // Only the day's quota refuses without waiting: nothing queued can go today.
          const why: Unrefreshed = {
            source: name,
            reason: "day-quota",
            ...(verdict.retryAtMs !== undefined && {
              retryAfterMs: Math.max(0, verdict.retryAtMs - Date.now()),
            }),
          };
          job.settle({ ok: false, why });
          this.refuseAll(why, 1);
          return;
        }
        job.settle(await this.fetchOne(job.registration, signal));
      } finally {
        this.running.delete(job.registration);
      }
    }
  }

  /** The day's quota is spent: nothing queued can go today, and the admin is told so. */
  private refuseAll(why: Unrefreshed, settled: number): void {
    const left = this.queued() + settled;
    for (const queue of [this.urgent, this.background]) {
      for (const job of queue.values()) job.settle({ ok: false, why });
      queue.clear();
    }
    if (left === 0) return;
    void this.paced.pacer
      .usedToday()
      .then(({ quota }) =>
        this.deps.store.recordSourceOutcome({
          source: this.paced.source.name,
          at: this.deps.now().toISOString(),
          ok: false,
          kind: "quota",
          message: `Today's quota of ${quota.toLocaleString("en-GB")} requests is spent: ${left.toLocaleString("en-GB")} ${left === 1 ? "vehicle was" : "vehicles were"} not refreshed and will be asked again after midnight (UTC). Raise the quota with the provider, or the day's requests will keep running out.`,
        }),
      )
      .catch(() => {});
  }

  private async fetchOne(
    registration: string,
    signal: AbortSignal,
  ): Promise<Outcome> {
    const { source, pacer } = this.paced;
    let answer: SourceAnswer;
    try {
      answer = await source.lookUp(registration, signal);
    } catch (error) {
      if (signal.aborted)
        return { ok: false, why: { source: source.name, reason: "waiting" } };
      return { ok: false, why: await this.failed(error, registration) };
    }
    await pacer.success();
    if (!answer.found) this.rememberNotFound(registration);
    else {
      await this.deps.store.recordFetched([
        {
          source: source.name,
          fetchedAt: answer.answeredAt.toISOString(),
          answer: this.trusted(answer),
        },
      ]);
    }
    await this.noteSuccess();
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

  private async failed(
    error: unknown,
    registration: string,
  ): Promise<Unrefreshed> {
    const { source, pacer } = this.paced;
    const known =
      error instanceof SourceError
        ? error
        : new SourceError(source.name, "unavailable", String(error), {
            cause: error,
          });
    // Logs and the admin's page never show a plate (decision 011): an adapter's words, or an
    // error it did not make, may.
    const message = known.message.split(registration).join("a registration");
    if (known.kind === "unavailable") await pacer.failure();
    const pause = known.retryAfterMs ?? PAUSE_MS[known.kind];
    if (pause !== undefined && known.kind !== "unavailable")
      await pacer.pauseFor(pause);
    this.deps.logger.warn("source: look-up failed", {
      source: source.name,
      kind: known.kind,
      message,
    });
    await this.deps.store
      .recordSourceOutcome({
        source: source.name,
        at: this.deps.now().toISOString(),
        ok: false,
        kind: known.kind,
        message,
      })
      .catch(() => {});
    return {
      source: source.name,
      reason: known.kind,
      ...(pause !== undefined && { retryAfterMs: pause }),
    };
  }

  private async noteSuccess(): Promise<void> {
    const now = this.deps.now();
    if (now.getTime() - this.lastOkWritten < OUTCOME_EVERY_MS) return;
    this.lastOkWritten = now.getTime();
    await this.deps.store
      .recordSourceOutcome({
        source: this.paced.source.name,
        at: now.toISOString(),
        ok: true,
      })
      .catch(() => {});
  }
}

export function createRefresher(deps: RefresherDeps): Refresher {
  const queues = new Map(
    deps.sources.map((paced) => [paced, new SourceQueue(paced, deps)]),
  );

  const isStale = (
    paced: PacedSource,
    known: Partial<Record<FactKind, Freshness>> | undefined,
    now: number,
  ) => {
    const fact = known?.[leadingKind(paced)];
    return (
      fact === undefined ||
      fact.source !== paced.source.name ||
      now - Date.parse(fact.fetchedAt) >= paced.freshForMs
    );
  };

  return {
    sources: deps.sources,
    async refresh(registrations, { budgetMs, background = false }) {
      const unique = [...new Set(registrations)];
      const before = await deps.store.freshness(unique);
      const now = deps.now().getTime();
      const waits: {
        registration: string;
        source: SourceName;
        wait: Promise<Outcome>;
      }[] = [];
      for (const [paced, queue] of queues)
        for (const registration of unique)
          if (isStale(paced, before.get(registration), now))
            waits.push({
              registration,
              source: paced.source.name,
              wait: queue.request(registration, !background),
            });
      if (waits.length === 0)
        return { freshness: before, unrefreshed: new Map() };

      // Each wait settles itself into `unrefreshed`; what the budget leaves behind goes on in
      // the background, and the answer says those vehicles are still waiting.
      const unrefreshed = new Map<string, Unrefreshed>();
      const pending = new Map<string, SourceName>();
      for (const { registration, source } of waits)
        pending.set(`${source}\u0000${registration}`, source);
      const tracked = waits.map(({ registration, source, wait }) =>
        wait.then((outcome) => {
          pending.delete(`${source}\u0000${registration}`);
          if (!outcome.ok && !unrefreshed.has(registration))
            unrefreshed.set(registration, outcome.why);
        }),
      );
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(tracked),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, budgetMs);
        }),
      ]);
      clearTimeout(timer);
      for (const [key, source] of pending) {
        const registration = key.slice(key.indexOf("\u0000") + 1);
        if (!unrefreshed.has(registration))
          unrefreshed.set(registration, { source, reason: "waiting" });
      }
      const after = await deps.store.freshness(unique);
      return { freshness: after, unrefreshed };
    },
    async queue(registrations) {
      const unique = [...new Set(registrations)];
      const known = await deps.store.freshness(unique);
      const now = deps.now().getTime();
      let queued = 0;
      let fresh = 0;
      for (const registration of unique) {
        let stale = false;
        for (const [paced, queue] of queues)
          if (isStale(paced, known.get(registration), now)) {
            stale = true;
            queued += 1;
            void queue.request(registration, false);
          }
        if (!stale) fresh += 1;
      }
      return { queued, fresh };
    },
    async close() {
      await Promise.all([...queues.values()].map((queue) => queue.close()));
    },
  };
}
