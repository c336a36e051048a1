import { RateLimiterRes } from "rate-limiter-flexible";
import { describe, expect, it } from "vitest";
import {
  createMemoryRateLimiter,
  TIER_LIMITS,
  toDecision,
} from "./memory-rate-limiter.ts";

describe("TIER_LIMITS", () => {
  it("are docs/contract.md's requests per 60-second window", () => {
    expect(TIER_LIMITS).toEqual({
      trial: 10,
      standard: 120,
      fleet: 1200,
      internal: 100_000,
      unauthenticated: 30,
    });
  });
});

describe("toDecision", () => {
  it.each([
    [5, 30_000, true, { remaining: 5, resetSeconds: 30 }],
    [-3, 1, false, { remaining: 0, resetSeconds: 1 }],
    [0, 59_001, false, { remaining: 0, resetSeconds: 60 }],
    [0, 61_000, false, { remaining: 0, resetSeconds: 60 }],
    [0, 0, false, { remaining: 0, resetSeconds: 0 }],
  ])("remaining points %i, %i ms to go", (points, ms, allowed, expected) => {
    expect(toDecision(10, new RateLimiterRes(points, ms), allowed)).toEqual({
      allowed,
      limit: 10,
      ...expected,
    });
  });
});

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
});
