import { describe, expect, it } from "vitest";
import { nextDailyAt } from "./daily-time.ts";

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe("nextDailyAt, the next run of a daily time in the UK", () => {
  it("is the next 07:00 in the UK, in GMT and in BST", () => {
    expect(iso(nextDailyAt("07:00", at("2026-11-24T10:00:00Z")))).toBe(
      "2026-11-25T07:00:00.000Z",
    );
    expect(iso(nextDailyAt("07:00", at("2026-11-24T06:59:00Z")))).toBe(
      "2026-11-24T07:00:00.000Z",
    );
    expect(iso(nextDailyAt("07:00", at("2026-07-01T05:00:00Z")))).toBe(
      "2026-07-01T06:00:00.000Z",
    );
  });

  it("stays 07:00 UK time across both clock changes", () => {
    // Clocks go back on Sunday 25 October 2026, forward on Sunday 28 March 2027.
    expect(iso(nextDailyAt("07:00", at("2026-10-24T07:00:00Z")))).toBe(
      "2026-10-25T07:00:00.000Z",
    );
    expect(iso(nextDailyAt("07:00", at("2026-10-24T05:30:00Z")))).toBe(
      "2026-10-24T06:00:00.000Z",
    );
    expect(iso(nextDailyAt("07:00", at("2027-03-27T07:00:00Z")))).toBe(
      "2027-03-28T06:00:00.000Z",
    );
  });
});
