import { describe, expect, it } from "vitest";
import {
  daysBetween,
  describePolicyEnd,
  formatDate,
  formatDateTime,
  formatFileDateTime,
  formatRelativeTime,
  formatTimeOnDate,
  formatTimeOnDay,
  isExpiringSoon,
  ukToday,
} from "./dates.ts";

describe("formatDate", () => {
  it.each([
    ["2027-05-12", "12 May 2027"],
    ["2026-01-01", "1 January 2026"],
    ["2024-02-29", "29 February 2024"],
    ["2026-12-31T23:59:59Z", "31 December 2026"],
  ])("%s -> %s", (input, expected) => {
    expect(formatDate(input)).toBe(expected);
  });
});

describe("formatDateTime", () => {
  it.each([
    ["2026-01-15T09:05:00Z", "15 January 2026 at 09:05"],
    // British Summer Time: UK clocks are one hour ahead of UTC.
    ["2026-07-01T23:30:00Z", "2 July 2026 at 00:30"],
  ])("%s -> %s", (input, expected) => {
    expect(formatDateTime(input)).toBe(expected);
  });
});

describe("formatTimeOnDate", () => {
  it.each([
    ["2026-11-22T10:15:00Z", "10:15 on 22 November 2026"],
    // British Summer Time: UK clocks are one hour ahead of UTC.
    ["2026-07-01T23:30:00Z", "00:30 on 2 July 2026"],
  ])("%s -> %s", (input, expected) => {
    expect(formatTimeOnDate(input)).toBe(expected);
  });
});

describe("ukToday and daysBetween", () => {
  // In 2026 British Summer Time runs from 01:00 UTC on 29 March to 01:00 UTC on 25 October.
  it.each([
    ["summer, 00:30 BST", "2026-07-14T23:30:00Z", "2026-07-15"],
    ["summer, 23:59 BST", "2026-07-14T22:59:59Z", "2026-07-14"],
    ["winter, 23:59 GMT", "2026-01-14T23:59:59Z", "2026-01-14"],
    ["winter, 00:00 GMT", "2026-01-15T00:00:00Z", "2026-01-15"],
    [
      "the evening before the clocks go forward",
      "2026-03-28T23:30:00Z",
      "2026-03-28",
    ],
    [
      "the night after the clocks go forward",
      "2026-03-29T23:30:00Z",
      "2026-03-30",
    ],
    ["the night the clocks go back", "2026-10-24T23:30:00Z", "2026-10-25"],
    [
      "the evening after the clocks go back",
      "2026-10-25T23:30:00Z",
      "2026-10-25",
    ],
  ])(
    "takes the UK's date, not UTC's or the machine's: %s",
    (_when, instant, expected) => {
      expect(ukToday(new Date(instant))).toBe(expected);
    },
  );

  it.each([
    ["2026-03-10", "2026-03-10", 0],
    ["2026-03-10", "2026-03-11", 1],
    ["2026-03-10", "2026-02-18", -20],
    ["2026-03-28", "2026-03-30", 2], // across the UK clock change
    ["2024-02-28", "2024-03-01", 2], // leap year
    ["2026-12-31", "2027-01-01", 1],
  ])("from %s to %s is %i days", (from, to, expected) => {
    expect(daysBetween(from, to)).toBe(expected);
  });
});

describe("describePolicyEnd", () => {
  const today = "2026-05-01";
  it.each([
    ["2026-04-11", "ended 20 days ago"],
    ["2026-04-29", "ended 2 days ago"],
    ["2026-04-30", "ended yesterday"],
    ["2026-05-01", "ends today"],
    ["2026-05-02", "ends tomorrow"],
    ["2026-05-11", "ends in 10 days"],
    ["2027-05-01", "ends in 365 days"],
  ])("cover to %s %s", (validTo, expected) => {
    expect(describePolicyEnd(validTo, today)).toBe(expected);
  });
});

describe("isExpiringSoon", () => {
  const today = "2026-05-01";
  it.each([
    ["2026-04-30", false], // already ended
    ["2026-05-01", true],
    ["2026-05-11", true],
    ["2026-05-31", true], // 30 days
    ["2026-06-01", false], // 31 days
  ])("cover to %s -> %s", (validTo, expected) => {
    expect(isExpiringSoon(validTo, today)).toBe(expected);
  });
});

describe("formatRelativeTime", () => {
  const now = new Date("2026-05-01T12:00:00Z");
  it.each([
    ["2026-05-01T11:59:40Z", "just now"],
    ["2026-05-01T11:55:00Z", "5 minutes ago"],
    ["2026-05-01T11:59:00Z", "1 minute ago"],
    ["2026-05-01T09:00:00Z", "3 hours ago"],
    ["2026-04-30T08:00:00Z", "yesterday"],
    ["2026-04-28T12:00:00Z", "3 days ago"],
    ["2026-01-01T12:00:00Z", "on 1 January 2026"],
  ])("%s -> %s", (timestamp, expected) => {
    expect(formatRelativeTime(timestamp, now)).toBe(expected);
  });

  it("counts days by the UK's date: at 00:30 BST, 01:30 BST the day before was yesterday", () => {
    // Both instants fall on 1 May in UTC; in the UK they are on 1 and 2 May.
    const justAfterMidnight = new Date("2026-05-01T23:30:00Z");
    expect(formatRelativeTime("2026-05-01T00:30:00Z", justAfterMidnight)).toBe(
      "yesterday",
    );
  });
});

describe("formatTimeOnDay", () => {
  it.each([
    ["2026-11-29T10:02:00Z", "10:02 today"],
    ["2026-11-28T09:15:00Z", "09:15 yesterday"],
    ["2026-11-27T06:00:00Z", "27 November 2026 at 06:00"],
    // Just after UK midnight in summer time is still the UK's next day, not UTC's.
    ["2026-07-01T23:30:00Z", "2 July 2026 at 00:30"],
  ])("%s, read on 2026-11-29 -> %s", (input, expected) => {
    expect(formatTimeOnDay(input, "2026-11-29")).toBe(expected);
  });

  it("counts the day in UK time: 00:30 BST on 2 July is today on 2 July", () => {
    expect(formatTimeOnDay("2026-07-01T23:30:00Z", "2026-07-02")).toBe(
      "00:30 today",
    );
  });
});

describe("formatFileDateTime", () => {
  it.each([
    ["2026-11-29T10:02:00Z", "2026-11-29 10:02"],
    ["2026-07-01T23:30:00Z", "2026-07-02 00:30"],
  ])("%s -> %s", (input, expected) => {
    expect(formatFileDateTime(input)).toBe(expected);
  });
});
