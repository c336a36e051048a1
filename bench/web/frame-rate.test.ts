import { describe, expect, it } from "vitest";
import { frameRate } from "./frame-rate.ts";

/** Timestamps of frames `gaps` ms apart, from 1000. */
function frames(gaps: number[]): number[] {
  const times = [1000];
  for (const gap of gaps) times.push((times.at(-1) ?? 0) + gap);
  return times;
}

describe("frameRate", () => {
  it("is 60 fps for frames 1/60 s apart, with no long frames", () => {
    const rate = frameRate(frames(Array(120).fill(1000 / 60)));
    expect(rate?.fps).toBeCloseTo(60, 6);
    expect(rate).toMatchObject({ frames: 121, longFrames: 0 });
    expect(rate?.longestFrameMs).toBeCloseTo(16.67, 2);
  });

  it("counts the frames over the whole span, so one stall lowers the rate", () => {
    // 59 frames of 16 ms and one of 100 ms: 60 gaps over 1,044 ms.
    const rate = frameRate(frames([...Array(59).fill(16), 100]));
    expect(rate?.fps).toBeCloseTo((60 * 1000) / 1044, 6);
    expect(rate?.longestFrameMs).toBe(100);
    expect(rate?.longFrames).toBe(1);
  });

  it("gives the 95th percentile gap", () => {
    // 100 gaps: 94 of 10 ms, 6 of 40 ms; the 95th is the first of the 40s.
    const rate = frameRate(
      frames([...Array(94).fill(10), ...Array(6).fill(40)]),
    );
    expect(rate?.p95FrameMs).toBe(40);
    const smooth = frameRate(
      frames([...Array(96).fill(10), ...Array(4).fill(40)]),
    );
    expect(smooth?.p95FrameMs).toBe(10);
  });

  it("is undefined with fewer than two frames or no time between them", () => {
    expect(frameRate([])).toBeUndefined();
    expect(frameRate([5])).toBeUndefined();
    expect(frameRate([5, 5])).toBeUndefined();
  });
});
