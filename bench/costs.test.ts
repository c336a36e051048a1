import { describe, expect, it } from "vitest";
import { costFigureKeys, costFigures, type RoundRun } from "./costs.ts";

const run = (cpuUs: number, rps = 1_000): RoundRun => ({
  cpuUs,
  rps,
  p50Ms: 10,
  p99Ms: 40,
});

describe("costFigures", () => {
  const figures = costFigures({
    minimal_service: [run(70), run(100), run(60)],
    service: [run(91), run(120), run(90, 2_000)],
    proxy: [run(300), run(260), run(280)],
  });

  it("gives each server's median round with the fastest and slowest", () => {
    expect(figures).toMatchObject({
      service_cpu_us_per_req: 91,
      service_cpu_fastest_round_us: 90,
      service_cpu_slowest_round_us: 120,
      service_rps: 1_000,
      service_p99_ms: 40,
    });
  });

  it("takes each ratio round by round: the median of the rounds' ratios", () => {
    // Rounds: 91/70 = 1.3, 120/100 = 1.2, 90/60 = 1.5. The ratio of the medians would be
    // 91/70 = 1.3 too here, but the range shows what one round said.
    expect(figures.service_minimal_cpu_ratio).toBeCloseTo(1.3);
    expect(figures.service_minimal_cpu_ratio_lowest_round).toBeCloseTo(1.2);
    expect(figures.service_minimal_cpu_ratio_highest_round).toBeCloseTo(1.5);
  });

  it("is not the ratio of the medians when the rounds say otherwise", () => {
    // Rounds: 140/70 = 2, 100/100 = 1, 60/60 = 1; the medians' ratio would be 100/70 = 1.43.
    const apart = costFigures({
      minimal_service: [run(70), run(100), run(60)],
      service: [run(140), run(100), run(60)],
    });
    expect(apart.service_minimal_cpu_ratio).toBeCloseTo(1);
    expect(apart.service_minimal_cpu_ratio_highest_round).toBeCloseTo(2);
  });

  it("is null for a server not measured and for the ratios it is part of", () => {
    expect(figures.nginx_cpu_us_per_req).toBeNull();
    expect(figures.proxy_nginx_cpu_ratio).toBeNull();
    expect(figures.proxy_nginx_cpu_ratio_lowest_round).toBeNull();
  });

  it("sets every key it lists", () => {
    expect(Object.keys(figures).sort()).toEqual(costFigureKeys().sort());
  });
});
