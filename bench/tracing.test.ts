import { describe, expect, it } from "vitest";
import {
  TRACING_OFF_PATH,
  TRACING_OFF_RATIO,
  TRACING_RATIO,
  tracingFigureKeys,
  tracingFigures,
} from "./tracing-figures.ts";
import { offPathNs, otlpSink } from "./tracing.ts";

describe("what traces cost a signed-in check", () => {
  it("takes each stack's median round over every pair, and the median of the pairs' own on/off ratios", () => {
    const figures = tracingFigures(
      [
        // Each pair's ratio is its rounds together: 880 / 800, 1020 / 1000, 966 / 840.
        { tracing_off: [400, 400], tracing_on10: [440, 440] },
        { tracing_off: [500, 500], tracing_on10: [510, 510] },
        { tracing_off: [420, 420], tracing_on10: [483, 483] },
      ],
      1000,
    );
    expect(figures.tracing_off_cpu_us_per_check).toBe(420);
    expect(figures.tracing_off_cpu_fastest_round_us).toBe(400);
    expect(figures.tracing_off_cpu_slowest_round_us).toBe(500);
    expect(figures.tracing_on10_cpu_us_per_check).toBe(483);
    // Pairs: 1.10, 1.02, 1.15; the median is a pair's ratio, not 483 / 420.
    expect(figures[TRACING_RATIO]).toBeCloseTo(1.1, 10);
    expect(figures[`${TRACING_RATIO}_lowest_pair`]).toBeCloseTo(1.02, 10);
    expect(figures[`${TRACING_RATIO}_highest_pair`]).toBeCloseTo(1.15, 10);
    // 1 µs of 420 is the off path's: 420 over the 419 the check would take without it.
    expect(figures[TRACING_OFF_PATH]).toBe(1000);
    expect(figures[TRACING_OFF_RATIO]).toBeCloseTo(420 / 419, 10);
  });

  it("takes a pair's ratio over its rounds together, not round by round", () => {
    const figures = tracingFigures(
      [{ tracing_off: [300, 500], tracing_on10: [500, 300] }],
      0,
    );
    // Round by round, 5/3 and 3/5; together, 800 over 800.
    expect(figures[TRACING_RATIO]).toBe(1);
  });

  it("sets every figure it names, and only those", () => {
    const figures = tracingFigures(
      [{ tracing_off: [300], tracing_on10: [310] }],
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

describe("the bench's OTLP sink", () => {
  it("counts each export and the spans in it, not their parents' ids", async () => {
    const sink = await otlpSink();
    try {
      const span = (id: string, parent?: string) => ({
        traceId: "0af7651916cd43dd8448eb211c80319c",
        spanId: id,
        ...(parent && { parentSpanId: parent }),
        name: "GET /v1/vehicle/:registration/insurance",
      });
      const body = {
        resourceSpans: [
          {
            scopeSpans: [
              {
                spans: [
                  span("b7ad6b7169203331"),
                  span("00f067aa0ba902b7", "b7ad6b7169203331"),
                ],
              },
            ],
          },
        ],
      };
      for (let i = 0; i < 2; i++) {
        const answer = await fetch(sink.url, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(body),
        });
        expect(answer.status).toBe(200);
      }
      expect(sink.exports()).toBe(2);
      expect(sink.spans()).toBe(4);
    } finally {
      await sink.close();
    }
  });
});
