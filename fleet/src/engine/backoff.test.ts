import { describe, expect, it } from "vitest";
import { backoffDelay, sleep } from "./backoff.ts";

const tuning = (random: number) => ({
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  random: () => random,
});

describe("backoffDelay", () => {
  it.each([
    [1, 0.999, 999],
    [2, 0.999, 1998],
    [3, 0.5, 2000],
    [6, 0.999, 29_970],
    [12, 0.999, 29_970],
    [3, 0, 0],
  ])(
    "try %i with random %d waits %i ms (doubling, full jitter, capped)",
    (tries, random, expected) => {
      expect(backoffDelay(tries, tuning(random))).toBe(expected);
    },
  );
});

describe("sleep", () => {
  it("ends early, without rejecting, when its signal aborts", async () => {
    const controller = new AbortController();
    const slept = sleep(60_000, controller.signal);
    controller.abort();
    await expect(slept).resolves.toBeUndefined();
  });
});
