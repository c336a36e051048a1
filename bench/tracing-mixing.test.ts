import { describe, expect, it } from "vitest";
import { otlpSink } from "./tracing.ts";
import { SPANS_A_KEPT_REQUEST } from "./tracing-mixing-worker.ts";
import {
  keptCosts,
  parseShares,
  workerFigure,
  type ShareRounds,
} from "./tracing-mixing.ts";

describe("keptCosts", () => {
  // The main thread's CPU a fixed 0.8 of the whole, its GC pauses 0.1: the split's arithmetic is
  // then known from the whole's.
  const figure = (cpuUsPerRequest: number, keptShare: number) => ({
    cpuUsPerRequest,
    mainThreadUsPerRequest: cpuUsPerRequest * 0.8,
    gcPauseUsPerRequest: cpuUsPerRequest * 0.1,
    keptShare,
    keptRequests: 0,
  });
  const rounds: ShareRounds[] = [
    { share: 0, figures: [figure(60, 0), figure(58, 0), figure(62, 0)] },
    {
      share: 0.1,
      figures: [figure(65, 0.095), figure(62, 0.096), figure(68, 0.102)],
    },
    { share: 1, figures: [figure(75, 1), figure(74, 1), figure(80, 1)] },
  ];

  it("takes each round's difference from none kept, then their median", () => {
    const [none, tenth, all] = keptCosts(rounds);
    expect(none).toMatchObject({ share: 0, medianUs: 60, addsUs: 0 });
    // One in ten: differences 5, 4, 6 (median 5); all: 15, 16, 18 (median 16).
    expect(tenth).toMatchObject({ share: 0.1, medianUs: 65, addsUs: 5 });
    expect(all).toMatchObject({ share: 1, medianUs: 75, addsUs: 16 });
  });

  it("splits each share's difference into the main thread's, the other threads' and the main thread's GC pauses, each the median of its own rounds' differences", () => {
    const [none, tenth] = keptCosts(rounds);
    expect(none).toMatchObject({
      addsMainUs: 0,
      addsOtherUs: 0,
      addsGcPauseUs: 0,
    });
    // One in ten: the whole's differences 5, 4, 6, so the main thread's 4, 3.2, 4.8 (median 4),
    // the other threads' 1, 0.8, 1.2 (median 1), the GC pauses' 0.5, 0.4, 0.6 (median 0.5).
    expect(tenth!.addsMainUs).toBeCloseTo(4, 10);
    expect(tenth!.addsOtherUs).toBeCloseTo(1, 10);
    expect(tenth!.addsGcPauseUs).toBeCloseTo(0.5, 10);
  });

  it("weighs each share's cost by the share its rounds actually kept, and sets it against every request kept", () => {
    const [, tenth, all] = keptCosts(rounds);
    // The median share kept is 0.096, not the 0.1 asked: 5 µs a request is 52.08 µs a kept one.
    expect(tenth!.keptShare).toBe(0.096);
    expect(tenth!.perKeptUs).toBeCloseTo(5 / 0.096, 10);
    expect(tenth!.overAllKept).toBeCloseTo(5 / 0.096 / 16, 10);
    expect(all!.overAllKept).toBe(1);
  });

  it("says nothing against every request kept when no round kept them all", () => {
    const [, tenth] = keptCosts(rounds.slice(0, 2));
    expect(tenth!.overAllKept).toBeUndefined();
  });

  it("refuses rounds that do not begin with none kept", () => {
    expect(() => keptCosts(rounds.slice(1))).toThrow(
      "the first share must be 0",
    );
  });
});

describe("parseShares", () => {
  it("takes shares from 0 to 1, the first 0", () => {
    expect(parseShares("0, 0.01,0.1,1")).toEqual([0, 0.01, 0.1, 1]);
  });

  it.each(["0.1,1", "0", "0,1.5", "0,x", "0,0.1,0.1", "0,-0.1"])(
    "refuses %j with the rule it breaks",
    (value) => {
      expect(() => parseShares(value)).toThrow(
        "--shares takes two or more shares from 0 to 1, the first 0, no two alike",
      );
    },
  );
});

describe("workerFigure", () => {
  it("runs the traced path in a process of its own: every kept request's three spans reach the sink, a request left out makes none", async () => {
    const sink = await otlpSink();
    try {
      const all = await workerFigure(1, sink.url, 1_000, "sdk");
      expect(all.keptShare).toBe(1);
      // The warm-up's 500 and the measured 1,000.
      expect(all.keptRequests).toBe(1_500);
      expect(all.cpuUsPerRequest).toBeGreaterThan(0);
      // The main thread's CPU is part of the process's, and its GC pauses part of the main
      // thread's; a kept request allocates spans, so some collection happens.
      expect(all.mainThreadUsPerRequest).toBeGreaterThan(0);
      expect(all.mainThreadUsPerRequest).toBeLessThanOrEqual(
        all.cpuUsPerRequest,
      );
      expect(all.gcPauseUsPerRequest).toBeGreaterThan(0);
      expect(all.gcPauseUsPerRequest).toBeLessThan(all.mainThreadUsPerRequest);
      expect(sink.spans()).toBe(1_500 * SPANS_A_KEPT_REQUEST);
      const none = await workerFigure(0, sink.url, 1_000, "sdk");
      expect(none).toMatchObject({ keptShare: 0, keptRequests: 0 });
      expect(sink.spans()).toBe(1_500 * SPANS_A_KEPT_REQUEST);
    } finally {
      await sink.close();
    }
  });

  it("runs the context path with no tracing: kept requests, and no span sent", async () => {
    const sink = await otlpSink();
    try {
      const tenth = await workerFigure(0.1, sink.url, 2_000, "context");
      // Drawn at random: 200 expected, far outside 100-300 less than once in a billion runs.
      expect(tenth.keptShare).toBeGreaterThan(0.05);
      expect(tenth.keptShare).toBeLessThan(0.15);
      expect(sink.exports()).toBe(0);
    } finally {
      await sink.close();
    }
  });
});
