// Keeps the facts the live sources give fresh (docs/sources.md): a check asks for its vehicles,
// the refresher finds which facts are older than their source's window, and fetches those,
// paced to the source's limits, one request per vehicle per source however many checks ask at
// once. Each answer is stored as it arrives, so a crash loses at most the requests in flight.
import type { Freshness } from "../store/fetched-facts.ts";
import type { PacedSource, Unrefreshed } from "./paced-source.ts";
import {
  type Outcome,
  type Priority,
  type QueueDeps,
  SourceQueue,
} from "./source-queue.ts";
import type { FactKind, SourceName } from "./source.ts";

/** The fact whose age says when a source's answer for a vehicle is due again. */
export const leadingKind = (paced: PacedSource): FactKind =>
  paced.kinds[0] ?? "vehicle";

type FreshnessMap = Map<string, Partial<Record<FactKind, Freshness>>>;

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
    options: {
      budgetMs: number;
      /** "check" (the default) goes ahead of "bulk", which goes ahead of queue()'s work. */
      priority?: Exclude<Priority, "background">;
      /**
       * False: only vehicles some register has answered for already are asked; a plate never
       * fetched is left alone (a bulk check by a key that may not spend the registers' quota
       * on vehicles VICS does not hold).
       */
      newVehicles?: boolean;
    },
  ): Promise<RefreshReport>;
  /**
   * Queues the facts of these vehicles that will be stale by `until` (default now) behind
   * every check, without waiting: the watched fleets' refresh ahead of their daily sweep. Says
   * how many requests it queued, and how many vehicles were fresh already.
   */
  queue(
    registrations: readonly string[],
    options?: { until?: Date },
  ): Promise<{ queued: number; fresh: number }>;
  /**
   * A single check's fast way: the report refresh() would give at once, when this replica's
   * remembered marks say every register's fact is fresh; undefined when refresh() must run.
   * No promise, no database read: a fresh check costs what a check without registers does.
   */
  freshNow(registration: string): RefreshReport | undefined;
  /** Stops the workers; requests in flight are abandoned, stored answers stay stored. */
  close(): Promise<void>;
}

export interface RefresherDeps extends QueueDeps {
  sources: readonly PacedSource[];
}

/**
 * How long this replica trusts a vehicle's freshness marks before reading them again. Fetch
 * times only move forward, so a mark read here can only be older than the stored one: a fresh
 * check then skips the database read, and answers with the time it read (decision 059).
 */
const MARKS_TRUSTED_MS = 60_000;
const MARKS_KEPT = 100_000;

type Marks = Partial<Record<FactKind, Freshness>>;

/** The stale facts' registrations per register, judged at `at` (epoch ms). */
function isStale(paced: PacedSource, marks: Marks | undefined, at: number) {
  const fact = marks?.[leadingKind(paced)];
  return (
    fact === undefined ||
    fact.source !== paced.source.name ||
    at - Date.parse(fact.fetchedAt) >= paced.freshForMs
  );
}

export function createRefresher(deps: RefresherDeps): Refresher {
  // Each stored answer updates the marks remembered here, so a vehicle fetched in the
  // background is not asked again while an older "never fetched" is still trusted.
  const queueDeps: QueueDeps = {
    ...deps,
    stored(fetched) {
      const kept = remembered.get(fetched.answer.registration);
      if (!kept) return;
      const marks: Marks = { ...kept.marks };
      const kinds = new Set<FactKind>(fetched.asked ?? []);
      if (fetched.answer.tax) kinds.add("tax");
      if (fetched.answer.mot) kinds.add("mot");
      if (fetched.answer.vehicle) kinds.add("vehicle");
      for (const kind of kinds) {
        const mark = marks[kind];
        if (!mark || mark.fetchedAt <= fetched.fetchedAt)
          marks[kind] = {
            source: fetched.source,
            fetchedAt: fetched.fetchedAt,
          };
      }
      kept.marks = marks;
    },
  };
  const queues = new Map(
    deps.sources.map((paced) => [paced, new SourceQueue(paced, queueDeps)]),
  );
  const remembered = new Map<
    string,
    { marks: Marks | undefined; readAt: number }
  >();

  /** The marks of these vehicles: remembered while trusted, else read (one statement). */
  async function marksOf(
    registrations: readonly string[],
    now: number,
  ): Promise<FreshnessMap> {
    const marks: FreshnessMap = new Map();
    const unknown: string[] = [];
    for (const registration of registrations) {
      const kept = remembered.get(registration);
      if (kept && now - kept.readAt < MARKS_TRUSTED_MS) {
        if (kept.marks) marks.set(registration, kept.marks);
      } else unknown.push(registration);
    }
    if (unknown.length === 0) return marks;
    const read = await deps.store.freshness(unknown);
    for (const registration of unknown) {
      const found = read.get(registration);
      if (found) marks.set(registration, found);
      remember(registration, found, now);
    }
    return marks;
  }

  function remember(
    registration: string,
    marks: Marks | undefined,
    now: number,
  ) {
    remembered.delete(registration);
    remembered.set(registration, { marks, readAt: now });
    if (remembered.size > MARKS_KEPT)
      remembered.delete(remembered.keys().next().value!);
  }

  const noneUnrefreshed: ReadonlyMap<string, Unrefreshed> = new Map();

  return {
    sources: deps.sources,
    freshNow(registration) {
      const kept = remembered.get(registration);
      const now = deps.now().getTime();
      if (!kept?.marks || now - kept.readAt >= MARKS_TRUSTED_MS)
        return undefined;
      for (const paced of deps.sources)
        if (isStale(paced, kept.marks, now)) return undefined;
      return {
        freshness: new Map([[registration, kept.marks]]),
        unrefreshed: noneUnrefreshed as Map<string, Unrefreshed>,
      };
    },
    async refresh(registrations, options) {
      const { budgetMs, priority = "check", newVehicles = true } = options;
      const unique = [...new Set(registrations)];
      const now = deps.now().getTime();
      const before = await marksOf(unique, now);
      const waits: {
        registration: string;
        source: SourceName;
        wait: Promise<Outcome>;
      }[] = [];
      for (const [paced, queue] of queues)
        for (const registration of unique) {
          const marks = before.get(registration);
          if (!newVehicles && marks === undefined) continue;
          if (isStale(paced, marks, now))
            waits.push({
              registration,
              source: paced.source.name,
              wait: queue.request(registration, priority),
            });
        }
      if (waits.length === 0)
        return { freshness: before, unrefreshed: new Map() };

      // Each wait settles itself into `unrefreshed`; what the budget leaves behind goes on in
      // the background, and the answer says those vehicles are still waiting.
      const unrefreshed = new Map<string, Unrefreshed>();
      const pending = new Set<(typeof waits)[number]>(waits);
      const tracked = waits.map((one) =>
        one.wait.then((outcome) => {
          pending.delete(one);
          if (!outcome.ok && !unrefreshed.has(one.registration))
            unrefreshed.set(one.registration, outcome.why);
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
      for (const { registration, source } of pending)
        if (!unrefreshed.has(registration))
          unrefreshed.set(registration, { source, reason: "waiting" });
      // What the registers just answered, without reading the store again: stored() put each
      // answer this replica wrote into the remembered marks. Another replica's answer shows
      // when the marks are next read, within the minute, as at a fresh check (decision 059).
      const after: FreshnessMap = new Map(before);
      for (const { registration } of waits) {
        const marks = remembered.get(registration)?.marks;
        if (marks) after.set(registration, marks);
      }
      return { freshness: after, unrefreshed };
    },
    async queue(registrations, { until } = {}) {
      const unique = [...new Set(registrations)];
      const now = deps.now().getTime();
      const at = Math.max(now, until?.getTime() ?? now);
      const known = await deps.store.freshness(unique);
      let queued = 0;
      let fresh = 0;
      for (const registration of unique) {
        let stale = false;
        for (const [paced, queue] of queues)
          if (isStale(paced, known.get(registration), at)) {
            stale = true;
            queued += 1;
            void queue.request(registration, "background");
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
