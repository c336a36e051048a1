import { describe, expect, it } from "vitest";
import { endOfUkDay } from "./answer-time.ts";

describe("endOfUkDay", () => {
  it("is the millisecond before the next UK midnight, in winter and in summer", () => {
    expect(new Date(endOfUkDay("2026-01-15")).toISOString()).toBe(
      "2026-01-15T23:59:59.999Z",
    );
    expect(new Date(endOfUkDay("2026-07-15")).toISOString()).toBe(
      "2026-07-15T22:59:59.999Z",
    );
  });

  it("follows the clock changes: the day before each one ends at the old offset", () => {
    // Clocks go forward at 01:00 UTC on 29 March 2026 and back at 01:00 UTC on 25 October.
    expect(new Date(endOfUkDay("2026-03-28")).toISOString()).toBe(
      "2026-03-28T23:59:59.999Z",
    );
    expect(new Date(endOfUkDay("2026-03-29")).toISOString()).toBe(
      "2026-03-29T22:59:59.999Z",
    );
    expect(new Date(endOfUkDay("2026-10-24")).toISOString()).toBe(
      "2026-10-24T22:59:59.999Z",
    );
    expect(new Date(endOfUkDay("2026-10-25")).toISOString()).toBe(
      "2026-10-25T23:59:59.999Z",
    );
  });
});
