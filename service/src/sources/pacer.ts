// Paces the requests VICS sends to one source, within the provider's rate, burst and day quota
// however many replicas send, and holds them while the provider says wait (Retry-After) or keeps
// failing (back-off). Its counts live in the service's LimitStore (RATE_LIMIT_URL): Redis shared
// by every replica, else this process's memory. Every instant comes from `clock`, so a store
// keeps counts and values only; its expiries just clear old keys.
import { setTimeout as delay } from "node:timers/promises";
import { utcDate } from "@vics/shared";
import { decide, type LimitStore } from "@vics/server-kit/rate-limiter";
import type { PaceSettings } from "./source-settings.ts";
import type { SourceName } from "./source.ts";

export type PaceVerdict =
  | { go: true }
  /** The day's quota is spent: the only refusal, until `retryAtMs` (UTC midnight). */
  | { go: false; retryAtMs: number };

export interface Pacer {
  /**
   * Waits for a slot for one request, through any pause or back-off: { go: true } when it may
   * be sent; { go: false } once the day's quota is spent, until UTC midnight. Rejects with
   * signal.reason when aborted while waiting.
   */
  acquire(options?: { signal?: AbortSignal }): Promise<PaceVerdict>;
  /** The provider said wait (Retry-After on a 429 or 503): every replica pauses until then. */
  pauseFor(ms: number): Promise<void>;
  /** A 5xx or time-out: back-off from 1 s doubling to 60 s, shared; reset by success(). */
  failure(): Promise<void>;
  success(): Promise<void>;
  /** Requests counted against today's quota (UTC day), and the quota. */
  usedToday(): Promise<{ used: number; quota: number }>;
}

export interface PacerClock {
  now(): number;
  /** Rejects with signal.reason when the signal aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** In [0, 1): the back-off's jitter. Math.random when absent. */
  random?(): number;
}

const FIRST_BACKOFF_MS = 1_000;
const LONGEST_BACKOFF_MS = 60_000;
const DAY_MS = 86_400_000;

/** Node's timers take at most this many ms; a longer Retry-After is slept in pieces. */
const LONGEST_TIMER_MS = 2_147_483_647;

export const realClock: PacerClock = {
  now: () => Date.now(),
  async sleep(ms, signal) {
    try {
      for (let left = ms; left > 0; left -= LONGEST_TIMER_MS)
        await delay(Math.min(left, LONGEST_TIMER_MS), undefined, { signal });
      signal?.throwIfAborted();
    } catch (error) {
      throw signal?.aborted ? signal.reason : error;
    }
  },
};

/**
 * Requests one slot may hold. Time is cut into slots of `size / perSecond` seconds, each
 * admitting `size` requests, so the rate holds over any run. Back to back, one slot's requests
 * at its end and the next's at its start make 2 x size at once: a third of the burst each
 * leaves the provider's bucket a third for network jitter and replicas' clock skew. A divisor
 * of the rate makes slots tile each second, so a provider counting per second sees perSecond.
 */
export function slotSize({ perSecond, burst }: PaceSettings): number {
  const most = Math.max(1, Math.floor(burst / 3));
  if (!Number.isInteger(perSecond)) return 1;
  for (let size = Math.min(most, perSecond); size > 1; size -= 1)
    if (perSecond % size === 0) return size;
  return 1;
}

const nextUtcMidnight = (ms: number) => (Math.floor(ms / DAY_MS) + 1) * DAY_MS;
/** The UTC day of the clock's `ms`, which names the day's quota key. */
const utcDay = (ms: number) => utcDate(new Date(ms));

export function createPacer(
  store: LimitStore,
  source: SourceName,
  settings: PaceSettings,
  clock: PacerClock = realClock,
): Pacer {
  const { perSecond, burst, perDay } = settings;
  if (!(perSecond > 0) || !(burst >= 1) || !(perDay >= 0))
    throw new RangeError(
      `pace for ${source}: perSecond must be above 0, burst at least 1, perDay at least 0`,
    );
  const size = slotSize(settings);
  const slotMs = (size * 1000) / perSecond;
  const prefix = `source:${source}`;
  // Keys are named by slot and by day, so their lifetimes only clear them away.
  const slots = store.window({
    points: size,
    duration: Math.max(2, Math.ceil((2 * slotMs) / 1000)),
    keyPrefix: `${prefix}:slot`,
  });
  const days = store.allOrNothingWindow({
    points: perDay,
    duration: 2 * 86_400,
    keyPrefix: `${prefix}:day`,
  });
  // Values, not counts: the instants paused and backed off until, and the failures in a row.
  const state = store.window({
    points: 1,
    duration: 86_400,
    keyPrefix: `${prefix}:state`,
  });
  const random = clock.random ?? Math.random;

  const read = async (key: string) =>
    (await state.get(key))?.consumedPoints ?? 0;
  /** Moves the instant at `key` on to `until`, never back. */
  async function postpone(key: string, until: number) {
    if ((await read(key)) >= until) return;
    const seconds = Math.ceil((until - clock.now()) / 1000) + 1;
    await state.set(key, Math.ceil(until), Math.max(1, seconds));
  }
  const pausedUntil = async () =>
    Math.max(...(await Promise.all([read("paused"), read("backoff")])));
  const daySpent = async (now: number) =>
    ((await days.get(utcDay(now)))?.consumedPoints ?? 0) >= perDay;
  const quotaSpent = (now: number): PaceVerdict => ({
    go: false,
    retryAtMs: nextUtcMidnight(now),
  });

  /** The waiting of the one acquire whose turn it is in this process. */
  async function pace(signal?: AbortSignal): Promise<PaceVerdict> {
    for (;;) {
      const now = clock.now();
      if (await daySpent(now)) return quotaSpent(now);
      const until = await pausedUntil();
      if (until > now) {
        await clock.sleep(until - now, signal);
        continue;
      }
      const slot = Math.floor(now / slotMs);
      if ((await decide(slots, String(slot))).allowed)
        return (await decide(days, utcDay(now))).allowed
          ? { go: true }
          : quotaSpent(now);
      const next = (slot + 1) * slotMs;
      await clock.sleep(Math.max(1, Math.ceil(next - now)), signal);
    }
  }

  // One acquire at a time talks to the store; the others wait here in order, so a replica
  // asks once a slot however many requests it has waiting.
  let last: Promise<void> = Promise.resolve();

  return {
    async acquire({ signal } = {}) {
      signal?.throwIfAborted();
      const ahead = last;
      let done!: () => void;
      last = new Promise((resolve) => (done = resolve));
      try {
        await turn(ahead, signal);
        return await pace(signal);
      } finally {
        // Whoever queued behind this one waits for the one ahead of it still.
        void ahead.then(done);
      }
    },
    async pauseFor(ms) {
      if (Number.isFinite(ms) && ms > 0)
        await postpone("paused", clock.now() + ms);
    },
    async failure() {
      const now = clock.now();
      // Requests sent before the back-off began fail in it: one outage, one step.
      if ((await read("backoff")) > now) return;
      const { consumedPoints: failures } = await state.penalty("failures", 1);
      const ceiling = Math.min(
        LONGEST_BACKOFF_MS,
        FIRST_BACKOFF_MS * 2 ** Math.min(failures - 1, 16),
      );
      await postpone("backoff", now + ceiling - (random() * ceiling) / 4);
    },
    async success() {
      await Promise.all([state.delete("failures"), state.delete("backoff")]);
    },
    async usedToday() {
      const used = (await days.get(utcDay(clock.now())))?.consumedPoints ?? 0;
      return { used, quota: perDay };
    },
  };
}

/** Resolves when `ahead` settles; rejects with signal.reason when `signal` aborts first. */
async function turn(ahead: Promise<void>, signal: AbortSignal | undefined) {
  if (!signal) return ahead;
  const over = new AbortController();
  try {
    await Promise.race([
      ahead,
      new Promise((_, reject) => {
        signal.addEventListener("abort", () => reject(signal.reason), {
          once: true,
          signal: over.signal,
        });
      }),
    ]);
  } finally {
    over.abort();
  }
}
