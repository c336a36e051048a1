// The pacer on a simulated clock: time moves only when every pacer is asleep and no store call
// is under way, so a minute of pacing takes no real minute and nothing depends on timing. Two
// pacers on one store are two replicas: in memory (one store object shared, as Redis is) and on
// a real redis-server.
import { memoryLimitStore } from "@vics/server-kit/memory-rate-limiter";
import type { LimitStore, WindowLimiter } from "@vics/server-kit/rate-limiter";
import { closeRedis, connectRedis } from "@vics/server-kit/redis-client";
import { redisLimitStore } from "@vics/server-kit/redis-rate-limiter";
import { memoryLogger } from "@vics/server-kit/testing/memory-logger";
import { startRedis } from "@vics/server-kit/testing/redis-server";
import { describe, expect, it } from "vitest";
import {
  createPacer,
  slotSize,
  type Pacer,
  type PacerClock,
  realClock,
} from "./pacer.ts";
import { DEFAULT_PACE, type PaceSettings } from "./source-settings.ts";

const NOON = Date.UTC(2026, 10, 29, 12, 0, 0);

/** A clock the test moves: `run` lets everything settle, then jumps to the next sleeper. */
function simulatedClock(start: number, busy: () => number) {
  let now = start;
  const sleepers = new Set<{ at: number; wake: () => void }>();
  const settle = async () => {
    for (let quiet = 0; quiet < 3;) {
      await new Promise((resolve) => setImmediate(resolve));
      quiet = busy() === 0 ? quiet + 1 : 0;
    }
  };
  const clock: PacerClock & { run(until: number): Promise<void> } = {
    now: () => now,
    random: () => 0,
    sleep: (ms, signal) =>
      new Promise((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const onAbort = () => {
          sleepers.delete(sleeper);
          reject(signal?.reason);
        };
        const sleeper = {
          at: now + ms,
          wake: () => {
            signal?.removeEventListener("abort", onAbort);
            resolve();
          },
        };
        sleepers.add(sleeper);
        signal?.addEventListener("abort", onAbort, { once: true });
      }),
    async run(until) {
      for (;;) {
        await settle();
        const next = [...sleepers].sort((a, b) => a.at - b.at)[0];
        if (!next || next.at > until) break;
        sleepers.delete(next);
        now = Math.max(now, next.at);
        next.wake();
      }
      now = Math.max(now, until);
      await settle();
    },
  };
  return clock;
}

/**
 * `store`'s limiters, counting the calls under way; in memory, one limiter per prefix, shared
 * as one Redis is (memoryLimitStore gives each caller its own).
 */
function trackedStore(store: LimitStore) {
  let pending = 0;
  const track = <T>(call: Promise<T>) => {
    pending += 1;
    return call.finally(() => (pending -= 1));
  };
  const made = new Map<string, WindowLimiter>();
  const wrap = (key: string, make: () => WindowLimiter): WindowLimiter => {
    const limiter = made.get(key) ?? make();
    made.set(key, limiter);
    return {
      points: limiter.points,
      consume: (...a) => track(limiter.consume(...a)),
      penalty: (...a) => track(limiter.penalty(...a)),
      reward: (...a) => track(limiter.reward(...a)),
      get: (...a) => track(limiter.get(...a)),
      set: (...a) => track(limiter.set(...a)),
      delete: (...a) => track(limiter.delete(...a)),
    };
  };
  const tracked: LimitStore = {
    window: (o) => wrap(`w:${o.keyPrefix}`, () => store.window(o)),
    allOrNothingWindow: (o) =>
      wrap(`a:${o.keyPrefix}`, () => store.allOrNothingWindow(o)),
    ping: () => store.ping(),
  };
  return { store: tracked, busy: () => pending };
}

function setUp(settings: PaceSettings, store: LimitStore = memoryLimitStore) {
  const tracked = trackedStore(store);
  const clock = simulatedClock(NOON, tracked.busy);
  const pacer = () =>
    createPacer(tracked.store, "dvsa-mot-history", settings, clock);
  return { clock, pacer, store: tracked.store, busy: tracked.busy };
}

/**
 * `workers` loops, each acquiring then spending `latencyMs` on its request, until a refusal or
 * `stopAt`, when their waits are aborted.
 */
function sendUntil(
  pacers: Pacer[],
  clock: PacerClock,
  stopAt: number,
  workers = 8,
  latencyMs = 150,
) {
  const sent: number[] = [];
  /** When each refused worker was told to come back. */
  const refusals: number[] = [];
  const stop = new AbortController();
  void clock.sleep(stopAt - clock.now()).then(() => stop.abort());
  const loops = Array.from({ length: workers }, async (_, index) => {
    const pacer = pacers[index % pacers.length]!;
    while (!stop.signal.aborted) {
      const verdict = await pacer
        .acquire({ signal: stop.signal })
        .catch((error: unknown) => {
          if (stop.signal.aborted) return undefined;
          throw error;
        });
      if (!verdict) return;
      if (!verdict.go) {
        refusals.push(verdict.retryAtMs);
        return;
      }
      sent.push(clock.now());
      await clock.sleep(latencyMs);
    }
  });
  return { sent, refusals, done: Promise.all(loops) };
}

/**
 * How long one acquire waits on the simulated clock before it may send (the pause or back-off
 * left), given the clock is run up to the longest back-off.
 */
async function waitBefore(
  pacer: Pacer,
  clock: ReturnType<typeof simulatedClock>,
) {
  const start = clock.now();
  let wentAt: number | undefined;
  const verdict = pacer.acquire().then((verdict) => {
    wentAt = clock.now();
    return verdict;
  });
  await clock.run(start + 60_000);
  expect(await verdict).toEqual({ go: true });
  return wentAt! - start;
}

/** The provider's token bucket (AWS-style rate and burst) would have refused none of `sent`. */
function expectWithinBucket(
  sent: number[],
  { perSecond, burst }: PaceSettings,
) {
  const over: string[] = [];
  for (let i = 0; i < sent.length; i += 1)
    for (let j = i; j < sent.length; j += 1)
      if (j - i + 1 > burst + (perSecond * (sent[j]! - sent[i]!)) / 1000)
        over.push(`${j - i + 1} sent in ${sent[j]! - sent[i]!} ms`);
  expect(over.slice(0, 3)).toEqual([]);
}

/** A provider counting per clock second would have refused none of `sent`. */
function expectPerSecond(sent: number[], perSecond: number) {
  const counts = new Map<number, number>();
  for (const at of sent)
    counts.set(
      Math.floor(at / 1000),
      (counts.get(Math.floor(at / 1000)) ?? 0) + 1,
    );
  expect(Math.max(...counts.values())).toBeLessThanOrEqual(perSecond);
}

const MOT: PaceSettings = { perSecond: 15, burst: 10, perDay: 500_000 };

describe("pacer", () => {
  it("keeps DVSA's documented limits as the MOT source's default", () => {
    expect(DEFAULT_PACE["dvsa-mot-history"]).toEqual(MOT);
    expect(slotSize(MOT)).toBe(3);
    expect(slotSize({ perSecond: 10, burst: 10, perDay: 1 })).toBe(2);
    expect(slotSize({ perSecond: 2.5, burst: 10, perDay: 1 })).toBe(1);
  });

  it("sends at the rate over a minute, never past the burst or the second's count", async () => {
    const { clock, pacer } = setUp(MOT);
    const run = sendUntil([pacer()], clock, NOON + 60_000, 20);
    await clock.run(NOON + 61_000);
    await run.done;
    expect(run.sent.length).toBeGreaterThanOrEqual(0.95 * 15 * 60);
    expect(run.sent.length).toBeLessThanOrEqual(15 * 60 + MOT.burst);
    expectWithinBucket(run.sent, MOT);
    expectPerSecond(run.sent, 15);
    expect(run.refusals).toEqual([]);
  });

  it("holds the rate for two replicas together, not each", async () => {
    const { clock, pacer } = setUp(MOT);
    const run = sendUntil([pacer(), pacer()], clock, NOON + 20_000, 20);
    await clock.run(NOON + 21_000);
    await run.done;
    expect(run.sent.length).toBeGreaterThanOrEqual(0.95 * 15 * 20);
    expect(run.sent.length).toBeLessThanOrEqual(15 * 20 + MOT.burst);
    expectWithinBucket(run.sent, MOT);
  });

  it("refuses once the day's quota is spent, without waiting, until UTC midnight", async () => {
    const { clock, pacer } = setUp({ ...MOT, perDay: 5 });
    const [first, second] = [pacer(), pacer()];
    const evening = NOON + 11 * 3_600_000 + 59 * 60_000; // 23:59
    await clock.run(evening);
    const run = sendUntil([first, second], clock, evening + 30_000, 4, 0);
    await clock.run(evening + 30_000);
    await run.done;
    expect(run.sent).toHaveLength(5);
    expect(run.refusals).toEqual(Array(4).fill(Date.UTC(2026, 10, 30)));
    expect(await second.usedToday()).toEqual({ used: 5, quota: 5 });
    expect(await first.acquire()).toEqual({
      go: false,
      retryAtMs: Date.UTC(2026, 10, 30),
    });
    await clock.run(Date.UTC(2026, 10, 30));
    expect(await second.acquire()).toEqual({ go: true });
    expect(await first.usedToday()).toEqual({ used: 1, quota: 5 });
  });

  it("pauses every replica for the provider's Retry-After, never shortening it", async () => {
    const { clock, pacer } = setUp(MOT);
    const [told, other] = [pacer(), pacer()];
    await told.pauseFor(30_000);
    await told.pauseFor(5_000);
    expect(await waitBefore(other, clock)).toBe(30_000);
  });

  it("backs off from 1 s doubling to 60 s, once per outage, until a success", async () => {
    const { clock, pacer } = setUp(MOT);
    const [failing, other] = [pacer(), pacer()];
    const pausedFor = () => waitBefore(other, clock);
    const waits: number[] = [];
    for (let step = 0; step < 8; step += 1) {
      await failing.failure();
      await failing.failure(); // a request sent before the back-off began
      waits.push(await pausedFor());
    }
    expect(waits).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000,
    ]);
    await failing.failure();
    await other.success();
    expect(await pausedFor()).toBe(0);
    await failing.failure();
    expect(await pausedFor()).toBe(1_000);
  });

  it("lets queued acquires go in order, one slot's size a slot", async () => {
    const { clock, pacer } = setUp({ perSecond: 10, burst: 3, perDay: 100 });
    const one = pacer();
    const endings: number[] = [];
    const verdicts = Array.from({ length: 6 }, () =>
      one.acquire().then((verdict) => {
        endings.push(clock.now());
        return verdict;
      }),
    );
    await clock.run(NOON + 1_000);
    expect(await Promise.all(verdicts)).toEqual(Array(6).fill({ go: true }));
    expect(endings).toEqual(
      [0, 100, 200, 300, 400, 500].map((ms) => NOON + ms),
    );
  });

  it("rejects with the signal's reason when aborted, waiting or queued", async () => {
    const { clock, pacer } = setUp(MOT);
    const one = pacer();
    await one.pauseFor(60_000);
    const first = new AbortController();
    const second = new AbortController();
    const waiting = one.acquire({ signal: first.signal });
    const queued = one.acquire({ signal: second.signal });
    const third = one.acquire();
    await clock.run(NOON + 1_000);
    second.abort(new Error("closing"));
    await expect(queued).rejects.toThrow("closing");
    first.abort(new Error("stopped"));
    await expect(waiting).rejects.toThrow("stopped");
    await clock.run(NOON + 60_000);
    expect(await third).toEqual({ go: true });
    const aborted = AbortSignal.abort(new Error("already"));
    await expect(one.acquire({ signal: aborted })).rejects.toThrow("already");
  });

  it("takes no pause from a Retry-After that is not a positive number", async () => {
    const { clock, pacer } = setUp(MOT);
    const one = pacer();
    for (const ms of [0, -5, Number.NaN, Number.POSITIVE_INFINITY])
      await one.pauseFor(ms);
    expect(await waitBefore(one, clock)).toBe(0);
  });

  it("sleeps on the real clock until aborted, rejecting with the reason", async () => {
    const stop = new AbortController();
    const sleeping = realClock.sleep(3_600_000, stop.signal);
    stop.abort(new Error("shut down"));
    await expect(sleeping).rejects.toThrow("shut down");
    const gone = AbortSignal.abort(new Error("gone"));
    await expect(realClock.sleep(0, gone)).rejects.toThrow("gone");
  });

  it("refuses settings it cannot pace", () => {
    const { store } = setUp(MOT);
    expect(() =>
      createPacer(store, "dvla-ves", { perSecond: 0, burst: 10, perDay: 1 }),
    ).toThrow(RangeError);
  });
});

describe("pacer on Redis", () => {
  it("shares the rate, the quota, the pause and the back-off between replicas", async () => {
    const redis = await startRedis();
    const logger = memoryLogger("info", "test");
    const clients = [
      await connectRedis({ url: redis.url, logger }),
      await connectRedis({ url: redis.url, logger }),
    ];
    try {
      const source = "dvsa-mot-history";
      // Each replica its own client and store; the simulated clock waits for both.
      const [a, b] = clients.map((client) =>
        trackedStore(redisLimitStore(client)),
      );
      const clock = simulatedClock(NOON, () => a!.busy() + b!.busy());
      const settings = { ...MOT, perDay: 100 };
      const replicas = [a!, b!].map((t) =>
        createPacer(t.store, source, settings, clock),
      );
      const run = sendUntil(replicas, clock, NOON + 10_000, 10, 100);
      await clock.run(NOON + 11_000);
      await run.done;
      expect(run.sent).toHaveLength(100);
      expect(run.refusals).toEqual(Array(10).fill(Date.UTC(2026, 10, 30)));
      expectWithinBucket(run.sent, settings);
      expectPerSecond(run.sent, 15);
      expect(await replicas[1]!.usedToday()).toEqual({ used: 100, quota: 100 });

      const other = { ...settings, perDay: 1000 };
      const [told, asked] = [a!, b!].map((t) =>
        createPacer(t.store, "dvla-ves", other, clock),
      );
      await told!.pauseFor(30_000);
      expect(await waitBefore(asked!, clock)).toBe(30_000);
      await told!.failure();
      await asked!.success();
      expect(await waitBefore(told!, clock)).toBe(0);
      await told!.failure();
      expect(await waitBefore(asked!, clock)).toBe(1_000);
    } finally {
      for (const client of clients) closeRedis(client);
      await redis.close();
    }
  }, 30_000);
});
