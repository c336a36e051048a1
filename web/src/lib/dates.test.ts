import { describe, expect, it } from "vitest";
import {
  daysBetween,
  describePolicyEnd,
  formatDate,
  formatDateTime,
  formatRelativeTime,
  formatTimeOnDate,
  isExpiringSoon,
  todayUtc,
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

describe("todayUtc and daysBetween", () => {
  it("takes the UTC day, not the local one", () => {
    expect(todayUtc(new Date("2026-03-10T23:59:59Z"))).toBe("2026-03-10");
    expect(todayUtc(new Date("2026-03-11T00:00:00Z"))).toBe("2026-03-11");
  });

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
});
