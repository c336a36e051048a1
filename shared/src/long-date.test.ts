import { describe, expect, it } from "vitest";
import {
  formatLongDate,
  formatUkDateTime,
  formatUkTimeOnDate,
} from "./long-date.ts";

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

describe("formatUkDateTime", () => {
  it.each([
    // Winter: UK time is UTC.
    ["2026-12-01T17:37:00Z", "1 December 2026 at 17:37"],
    // Summer: an hour ahead, and past midnight it is already the next day in the UK.
    ["2026-07-14T23:30:00.000Z", "15 July 2026 at 00:30"],
  ])("says %s as %s", (instant, words) => {
    expect(formatUkDateTime(instant)).toBe(words);
    expect(formatUkDateTime(Date.parse(instant))).toBe(words);
  });
});

describe("formatUkTimeOnDate", () => {
  it.each([
    ["2026-12-01T17:37:00Z", "17:37 on 1 December 2026"],
    ["2026-07-14T23:30:00.000Z", "00:30 on 15 July 2026"],
  ])("says %s as %s", (instant, words) => {
    expect(formatUkTimeOnDate(instant)).toBe(words);
    expect(formatUkTimeOnDate(Date.parse(instant))).toBe(words);
  });
});
