import { RateLimiterRes } from "rate-limiter-flexible";
import { describe, expect, it } from "vitest";
import { TIER_LIMITS, toDecision } from "./rate-limiter.ts";

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
