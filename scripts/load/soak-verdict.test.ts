import { describe, expect, it } from "vitest";
import { soakVerdict, type SoakFigures } from "./soak-verdict.ts";

/** One sample a second for 60 s, at `mb` until the warm-up ends, then `after`. */
function flat(mb: number, after = mb): Array<[number, number]> {
  return Array.from({ length: 61 }, (_, at) => [
    at,
    at < 10 ? mb * 0.5 : after,
  ]);
}

const good: SoakFigures = {
  statuses: { "200": 150_000, "429": 30_000 },
  errors: 0,
  timeouts: 0,
  rss: { proxy: flat(80), service: flat(120) },
  warmUpSeconds: 10,
  durationSeconds: 60,
};

describe("the soak's verdict", () => {
  it("passes with only 200s and designed 429s, and memory flat after the warm-up", () => {
    const verdict = soakVerdict(good);
    expect(verdict).toMatchObject({ ok: true, reasons: [], unexpected: {} });
    expect(verdict.memory.proxy).toMatchObject({
      afterWarmUpMb: 80,
      atEndMb: 80,
      ok: true,
    });
  });

  it.each([
    [
      "a 500",
      { statuses: { "200": 10, "500": 1 } },
      /answers other than 200 and 429/,
    ],
    ["a 502", { statuses: { "200": 10, "502": 3 } }, /"502":3/],
    ["connection errors", { errors: 2 }, /2 connection errors/],
    ["time-outs", { timeouts: 1 }, /1 time-outs/],
  ])("fails on %s", (_case, change, reason) => {
    const verdict = soakVerdict({ ...good, ...change });
    expect(verdict.ok).toBe(false);
    expect(verdict.reasons.join("\n")).toMatch(reason);
  });

  it("fails when a process's memory grows more than 20% after the warm-up, and not at 19%", () => {
    const growing: Array<[number, number]> = flat(100).map(([at, mb]) => [
      at,
      at >= 55 ? 125 : mb,
    ]);
    const verdict = soakVerdict({
      ...good,
      rss: { ...good.rss, service: growing },
    });
    expect(verdict.ok).toBe(false);
    expect(verdict.memory.service).toMatchObject({
      afterWarmUpMb: 100,
      atEndMb: 125,
      ok: false,
    });
    const slight = flat(100).map(([at, mb]): [number, number] => [
      at,
      at >= 55 ? 119 : mb,
    ]);
    expect(
      soakVerdict({ ...good, rss: { ...good.rss, service: slight } }).ok,
    ).toBe(true);
  });
});
