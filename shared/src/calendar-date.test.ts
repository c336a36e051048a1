import { describe, expect, it } from "vitest";
import {
  addDays,
  addYears,
  calendarDate,
  daysBetween,
  isCalendarDate,
  utcDate,
  yearOf,
} from "./calendar-date.ts";

describe("calendarDate and isCalendarDate: only days that exist", () => {
  it.each([
    [2026, 2, 28, "2026-02-28"],
    [2028, 2, 29, "2028-02-29"],
    [2026, 12, 31, "2026-12-31"],
    [5, 1, 1, "0005-01-01"],
  ])("%i-%i-%i is %s", (year, month, day, date) => {
    expect(calendarDate(year, month, day)).toBe(date);
    expect(isCalendarDate(date)).toBe(true);
  });

  it.each([
    [2026, 2, 29],
    [2100, 2, 29],
    [2026, 13, 1],
    [2026, 0, 10],
    [2026, 4, 31],
    [2026, 1, 0],
  ])("%i-%i-%i is no day", (year, month, day) => {
    expect(calendarDate(year, month, day)).toBeUndefined();
  });

  it.each([
    "2026-02-30",
    "2026-13-01",
    "2026-1-05",
    "26-01-05",
    "2026-01-05T00:00",
    " 2026-01-05",
    "05/01/2026",
    "",
  ])("%j is not a calendar date", (text) => {
    expect(isCalendarDate(text)).toBe(false);
  });
});

describe("utcDate", () => {
  it("takes the UTC calendar day of an instant", () => {
    expect(utcDate(new Date("2026-03-10T23:59:59.999Z"))).toBe("2026-03-10");
    expect(utcDate(new Date("2026-03-11T00:30:00+01:00"))).toBe("2026-03-10");
  });
});

describe("daysBetween and addDays: calendar days, whatever the clocks do", () => {
  it.each([
    ["2026-03-28", "2026-03-30", 2], // across the spring clock change
    ["2026-10-24", "2026-10-26", 2], // across the autumn one
    ["2028-02-28", "2028-03-01", 2], // a leap year's 29 February
    ["2024-02-28", "2024-02-29", 1],
    ["2026-02-28", "2026-03-01", 1],
    ["2026-12-31", "2027-01-01", 1],
    ["2026-11-27", "2026-11-27", 0],
    ["2026-01-01", "2025-12-31", -1],
    ["2026-11-27", "2026-11-20", -7],
  ])("from %s to %s is %i days, and back", (from, to, days) => {
    expect(daysBetween(from, to)).toBe(days);
    expect(addDays(from, days)).toBe(to);
  });

  it("reads a timestamp by its calendar date", () => {
    expect(daysBetween("2026-11-27T23:59:00.000Z", "2026-11-28")).toBe(1);
  });
});

describe("addYears and yearOf", () => {
  it.each([
    ["2023-03-10", 3, "2026-03-10"],
    ["2024-02-29", 3, "2027-03-01"],
    ["2024-02-29", 4, "2028-02-29"],
    ["2096-02-29", 4, "2100-03-01"],
    ["1996-02-29", 4, "2000-02-29"],
    ["2026-12-31", -3, "2023-12-31"],
    ["2024-02-29", -1, "2023-03-01"],
  ])("%s plus %i years is %s", (date, years, expected) => {
    expect(addYears(date, years)).toBe(expected);
  });

  it("reads the year", () => {
    expect(yearOf("2019-07-01")).toBe(2019);
  });
});
