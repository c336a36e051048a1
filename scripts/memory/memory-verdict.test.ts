import { describe, expect, it } from "vitest";
import { type MemorySample, memoryVerdict } from "./memory-verdict.ts";

const MB = 1024 * 1024;
const sample = (heapMb: number, rssMb = 300): MemorySample => ({
  rss: rssMb * MB,
  heapTotal: (heapMb + 10) * MB,
  heapUsed: heapMb * MB,
  external: 2 * MB,
  arrayBuffers: MB,
});

describe("memoryVerdict", () => {
  it("calls a heap that comes back down no leak, however high RSS stays", () => {
    const verdict = memoryVerdict(sample(20, 150), [
      sample(26, 500),
      sample(25.5, 520),
      sample(26.2, 521),
      sample(25.8, 523),
    ]);
    expect(verdict.leak).toBe(false);
    expect(verdict.rssMb).toEqual([150, 500, 520, 521, 523]);
    expect(verdict.heapGrowthPerRoundMb).toBeCloseTo(-0.067, 2);
  });

  it("calls a heap that grows every round by more than the tolerance a leak", () => {
    const verdict = memoryVerdict(sample(20), [
      sample(30),
      sample(36),
      sample(42),
      sample(48),
    ]);
    expect(verdict.leak).toBe(true);
    expect(verdict.heapGrowthPerRoundMb).toBeCloseTo(6);
    expect(verdict.reasons[0]).toMatch(/grew every round/);
  });

  it("does not call the first round's warm-up, or slow creep under the tolerance, a leak", () => {
    expect(memoryVerdict(sample(20), [sample(40), sample(40.5)]).leak).toBe(
      false,
    );
    expect(
      memoryVerdict(sample(20), [sample(30), sample(30.3), sample(30.6)]).leak,
    ).toBe(false);
  });

  it("does not call growth that falls back in between a leak", () => {
    expect(
      memoryVerdict(sample(20), [
        sample(30),
        sample(40),
        sample(31),
        sample(45),
      ]).leak,
    ).toBe(false);
  });
});
