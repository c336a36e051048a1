import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { RunProgress, VehicleResult } from "../results.ts";
import { ProgressMeter } from "./progress-meter.ts";

const answered = (count: number, notChecked = 0): VehicleResult[] =>
  Array.from({ length: count }, (_, index) => ({
    registration: `R${index}`,
    insurance:
      index < notChecked
        ? { status: "not-checked", reason: "No answer" }
        : { status: "not-found" },
    checkedAt: "2026-01-05T09:00:00.000Z",
  }));

describe("ProgressMeter", () => {
  beforeEach(() => vi.useFakeTimers({ now: 0 }));
  afterEach(() => vi.useRealTimers());

  it("reports counts at most every interval, the latest counts last", () => {
    const reports: RunProgress[] = [];
    const meter = new ProgressMeter(100, Date.now, 100, (progress) =>
      reports.push(progress),
    );
    meter.setPhase("paused");
    for (let batch = 0; batch < 10; batch += 1) meter.answered(answered(5, 1));
    expect(reports).toHaveLength(1);

    vi.advanceTimersByTime(100);
    expect(reports).toHaveLength(2);
    expect(reports.at(-1)).toMatchObject({
      phase: "paused",
      done: 50,
      notChecked: 10,
    });
  });

  it("reports a phase change at once, with the wait's end and words", () => {
    const reports: RunProgress[] = [];
    const meter = new ProgressMeter(10, Date.now, 100, (progress) =>
      reports.push(progress),
    );
    meter.waiting(23_000, "Waiting 23 s for the rate limit");
    meter.setPhase("running");
    expect(reports).toEqual([
      {
        phase: "waiting",
        total: 10,
        done: 0,
        notChecked: 0,
        waitUntil: 23_000,
        message: "Waiting 23 s for the rate limit",
      },
      { phase: "running", total: 10, done: 0, notChecked: 0 },
    ]);
  });

  it("measures the rate from the last resumption, and the time left from it", () => {
    const reports: RunProgress[] = [];
    const meter = new ProgressMeter(100, Date.now, 0, (progress) =>
      reports.push(progress),
    );
    meter.rebase();
    meter.answered(answered(40));
    vi.advanceTimersByTime(60_000);
    meter.rebase();
    vi.advanceTimersByTime(10_000);
    meter.answered(answered(20));
    expect(reports.at(-1)).toMatchObject({
      done: 60,
      ratePerSecond: 2,
      secondsLeft: 20,
    });
  });
});
