import { describe, expect, it } from "vitest";
import { addDays, addYears, utcDate, yearOf } from "./dates.ts";

describe("dates", () => {
  it("takes the UTC calendar day of an instant", () => {
    expect(utcDate(new Date("2026-03-10T23:59:59.999Z"))).toBe("2026-03-10");
    expect(utcDate(new Date("2026-03-11T00:30:00+01:00"))).toBe("2026-03-10");
  });

  it.each([
    ["2026-02-28", 1, "2026-03-01"],
    ["2024-02-28", 1, "2024-02-29"],
    ["2026-01-01", -1, "2025-12-31"],
    ["2026-03-10", 0, "2026-03-10"],
  ])("%s plus %i days is %s", (date, days, expected) => {
    expect(addDays(date, days)).toBe(expected);
  });

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
