import { describe, expect, it } from "vitest";
import { formatLongDate } from "./long-date.ts";

describe("formatLongDate", () => {
  it.each([
    ["2027-03-03", "3 March 2027"],
    ["2026-11-19", "19 November 2026"],
    // The calendar day of a timestamp's date, not the day in some zone.
    ["2026-07-14T23:30:00.000Z", "14 July 2026"],
    ["2027-01-01", "1 January 2027"],
  ])("says %s as %s", (date, words) => {
    expect(formatLongDate(date)).toBe(words);
  });
});
