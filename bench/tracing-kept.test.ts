import { describe, expect, it } from "vitest";
import { keptCosts, type KindRounds } from "./tracing-kept.ts";

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
