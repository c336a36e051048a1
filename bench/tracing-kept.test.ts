import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  fromServerKit,
  keptCosts,
  keyWindow,
  serverSdk,
  traceIdPicker,
  type KindRounds,
} from "./tracing-kept.ts";

describe("keptCosts", () => {
  const rounds: KindRounds = {
    none_kept: { proxy: [300, 320, 310], service: [100, 110, 90] },
    as_sampled: { proxy: [306, 330, 313], service: [104, 112, 95] },
    all_kept: { proxy: [360, 390, 380], service: [150, 150, 140] },
  };

  it("takes each round's difference from none kept, then their median", () => {
    const costs = keptCosts(rounds);
    // Proxy: differences 6, 10, 3 (median 6); all kept 60, 70, 70 (median 70).
    expect(costs.proxy).toMatchObject({
      noneKeptUs: 310,
      asSampledUs: 313,
      allKeptUs: 380,
      keptTenthUs: 6,
      oneKeptUs: 70,
    });
    expect(costs.proxy.keptTenthRatio).toBeCloseTo(316 / 310, 10);
    // Service: differences 4, 2, 5; all kept 50, 40, 50.
    expect(costs.service).toMatchObject({ keptTenthUs: 4, oneKeptUs: 50 });
  });

  it("adds the two servers round by round before taking medians", () => {
    const both = keptCosts(rounds).both;
    // None kept 400, 430, 400; as sampled 410, 442, 408: differences 10, 12, 8.
    expect(both).toMatchObject({ noneKeptUs: 400, keptTenthUs: 10 });
    // All kept 510, 540, 520: differences 110, 110, 120.
    expect(both.oneKeptUs).toBe(110);
    expect(both.keptTenthRatio).toBeCloseTo(410 / 400, 10);
  });
});

describe("traceIdPicker", () => {
  it("picks ids the edge's sampler (parent-based, a tenth) keeps or leaves out", () => {
    // The servers' SDK and API, as the picker resolves them.
    const { ParentBasedSampler, TraceIdRatioBasedSampler, SamplingDecision } =
      serverSdk();
    const { ROOT_CONTEXT, SpanKind } = fromServerKit("@opentelemetry/api") as {
      ROOT_CONTEXT: unknown;
      SpanKind: { SERVER: number };
    };
    const edge = new ParentBasedSampler({
      root: new TraceIdRatioBasedSampler(0.1),
    });
    const kept = (traceId: string) =>
      edge.shouldSample(ROOT_CONTEXT, traceId, "GET", SpanKind.SERVER, {}, [])
        .decision === SamplingDecision.RECORD_AND_SAMPLED;
    const { pick, keeps } = traceIdPicker();
    for (let i = 0; i < 200; i++) {
      expect(kept(pick(true))).toBe(true);
      expect(kept(pick(false))).toBe(false);
    }
    // Random ids: about a tenth kept, and `keeps` says which.
    const ids = Array.from({ length: 5_000 }, () =>
      randomBytes(16).toString("hex"),
    );
    const share = ids.filter(keeps).length / ids.length;
    expect(share).toBeGreaterThan(0.07);
    expect(share).toBeLessThan(0.13);
    for (const id of ids.slice(0, 500)) expect(keeps(id)).toBe(kept(id));
  });
});

describe("keyWindow", () => {
  it("waits for the window to end when the next run would pass the budget", async () => {
    let clock = 1_000;
    const slept: number[] = [];
    const spend = keyWindow(100, 60_000, {
      now: () => clock,
      sleep: async (ms) => {
        slept.push(ms);
        clock += ms;
      },
    });
    await spend(60);
    clock += 10_000;
    await spend(40); // 100: the budget, not past it
    expect(slept).toEqual([]);
    clock += 5_000;
    await spend(1); // past it: waits until 60 s after the window opened at 1,000
    expect(slept).toEqual([45_000]);
    await spend(99); // a new window, opened after the wait
    expect(slept).toEqual([45_000]);
    await spend(1);
    expect(slept).toEqual([45_000, 60_000]);
  });

  it("refuses a run larger than the budget", async () => {
    await expect(keyWindow(100)(101)).rejects.toThrow(RangeError);
  });
});
