import { describe, expect, it } from "vitest";
import {
  TRACING_OFF_PATH,
  TRACING_OFF_RATIO,
  TRACING_RATIO,
  tracingFigureKeys,
  tracingFigures,
} from "./tracing-figures.ts";
import { offPathNs } from "./tracing.ts";

describe("what traces cost a signed-in check", () => {
  it("takes each stack's median round and the median of the rounds' own on/off ratios", () => {
    const figures = tracingFigures(
      {
        tracing_off: [400, 500, 420],
        tracing_on10: [440, 510, 483],
      },
      1000,
    );
    expect(figures.tracing_off_cpu_us_per_check).toBe(420);
    expect(figures.tracing_off_cpu_fastest_round_us).toBe(400);
    expect(figures.tracing_off_cpu_slowest_round_us).toBe(500);
    expect(figures.tracing_on10_cpu_us_per_check).toBe(483);
    // Rounds: 1.10, 1.02, 1.15; the median is the round's ratio, not 483 / 420.
    expect(figures[TRACING_RATIO]).toBeCloseTo(1.1, 10);
    expect(figures[`${TRACING_RATIO}_lowest_round`]).toBeCloseTo(1.02, 10);
    expect(figures[`${TRACING_RATIO}_highest_round`]).toBeCloseTo(1.15, 10);
    // 1 µs of 420 is the off path's: 420 over the 419 the check would take without it.
    expect(figures[TRACING_OFF_PATH]).toBe(1000);
    expect(figures[TRACING_OFF_RATIO]).toBeCloseTo(420 / 419, 10);
  });

  it("sets every figure it names, and only those", () => {
    const figures = tracingFigures(
      { tracing_off: [300], tracing_on10: [310] },
      50,
    );
    expect(Object.keys(figures).sort()).toEqual(tracingFigureKeys().sort());
    for (const key of tracingFigureKeys())
      expect(figures[key]).toBeGreaterThan(0);
  });

  it("times the off path's calls in this process, where no SDK is registered", () => {
    const ns = offPathNs(10_000);
    expect(ns).toBeGreaterThan(0);
    expect(Number.isFinite(ns)).toBe(true);
  });
});
