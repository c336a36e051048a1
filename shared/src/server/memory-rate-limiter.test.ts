import { RateLimiterRes } from "rate-limiter-flexible";
import { describe, expect, it } from "vitest";
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
