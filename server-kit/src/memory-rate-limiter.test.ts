import { RateLimiterRes } from "rate-limiter-flexible";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createRateLimiter } from "./rate-limiter.ts";
import {
  createMemoryRateLimiter,
  memoryLimitStore,
} from "./memory-rate-limiter.ts";

describe("createMemoryRateLimiter", () => {
  it("keeps tiers and accounts apart", async () => {
    const limiter = createMemoryRateLimiter();
    for (let i = 0; i < 10; i++)
      expect((await limiter.consume("trial", "key:1")).allowed).toBe(true);
    expect(await limiter.consume("trial", "key:1")).toMatchObject({
      allowed: false,
      remaining: 0,
      limit: 10,
    });
    expect(await limiter.consume("trial", "key:2")).toMatchObject({
      allowed: true,
      remaining: 9,
    });
    expect(await limiter.consume("unauthenticated", "key:1")).toMatchObject({
      allowed: true,
      limit: 30,
    });
  });

  it("always answers a readiness check", async () => {
    await expect(createMemoryRateLimiter().ping()).resolves.toBeUndefined();
  });
});

describe("memoryLimitStore.allOrNothingWindow", () => {
  it("counts nothing for a consume that does not fit, and says what is left", async () => {
    const window = memoryLimitStore.allOrNothingWindow({
      points: 10,
      duration: 60,
      keyPrefix: "test",
    });
    await window.consume("ann", 7);
    const refused = await window.consume("ann", 4).catch((error) => error);
    expect(refused).toBeInstanceOf(RateLimiterRes);
    expect(refused).toMatchObject({ consumedPoints: 7, remainingPoints: 3 });
    expect(await window.consume("ann", 3)).toMatchObject({
      consumedPoints: 10,
      remainingPoints: 0,
    });
  });
});

describe("memoryLimitStore's counting window", () => {
  afterEach(() => vi.useRealTimers());

  it("decides as rate-limiter-flexible's memory window does, across windows and refusals", async () => {
    vi.useFakeTimers({ now: new Date("2026-03-10T10:00:00.000Z") });
    const counted = createRateLimiter(memoryLimitStore);
    const library = createRateLimiter({
      ...memoryLimitStore,
      countingWindow: undefined,
    });
    // Steps in milliseconds: within a window, up to its last millisecond, past it, and long gaps.
    const steps = [
      0, 1, 499, 500, 999, 15_000, 29_999, 59_000, 999, 1, 0, 61_000,
    ];
    for (const [index, step] of [...steps, ...steps, ...steps].entries()) {
      vi.advanceTimersByTime(step);
      // Three consumes a step, so the trial plan's 10 are passed within a window.
      for (const account of ["key:1", "key:2", "key:1", "key:1"]) {
        const tier = index % 3 === 0 ? "unauthenticated" : "trial";
        expect(
          await counted.consume(tier, account),
          `${index} ${account}`,
        ).toEqual(await library.consume(tier, account));
      }
    }
  });

  it("forgets a key when its window ends", async () => {
    vi.useFakeTimers();
    const window = memoryLimitStore.countingWindow!({
      points: 2,
      duration: 60,
      keyPrefix: "test",
    });
    expect(window("ann")).toEqual({ consumed: 1, msBeforeNext: 60_000 });
    vi.advanceTimersByTime(20_000);
    expect(window("ann")).toEqual({ consumed: 2, msBeforeNext: 40_000 });
    expect(window("ann")).toEqual({ consumed: 3, msBeforeNext: 40_000 });
    vi.advanceTimersByTime(40_000);
    expect(window("ann")).toEqual({ consumed: 1, msBeforeNext: 60_000 });
    expect(vi.getTimerCount()).toBe(1);
  });
});
