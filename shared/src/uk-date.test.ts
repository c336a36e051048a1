import { describe, expect, it } from "vitest";
import { ukDate, ukMidnight } from "./uk-date.ts";

// In 2026 British Summer Time runs from 01:00 UTC on 29 March to 01:00 UTC on 25 October.
describe("ukDate: today is the UK's calendar date", () => {
  it.each([
    // Summer (UTC+1): the UK day starts at 23:00 UTC the evening before.
    ["2026-07-14T22:59:59.999Z", "2026-07-14"],
    ["2026-07-14T23:00:00.000Z", "2026-07-15"],
    ["2026-07-14T23:30:00.000Z", "2026-07-15"],
    // Winter (UTC+0): the UK and UTC days agree.
    ["2026-01-14T23:59:59.999Z", "2026-01-14"],
    ["2026-01-15T00:00:00.000Z", "2026-01-15"],
    // Clocks go forward: the evening before is still GMT, the evening after is BST.
    ["2026-03-28T23:30:00.000Z", "2026-03-28"],
    ["2026-03-29T00:59:59.999Z", "2026-03-29"],
    ["2026-03-29T01:00:00.000Z", "2026-03-29"],
    ["2026-03-29T22:59:59.999Z", "2026-03-29"],
    ["2026-03-29T23:00:00.000Z", "2026-03-30"],
    // Clocks go back: the evening before is BST, the evening after is GMT again.
    ["2026-10-24T22:59:59.999Z", "2026-10-24"],
    ["2026-10-24T23:00:00.000Z", "2026-10-25"],
    ["2026-10-25T23:30:00.000Z", "2026-10-25"],
    ["2026-10-26T00:00:00.000Z", "2026-10-26"],
    // The year turns at UTC midnight in winter.
    ["2026-12-31T23:59:59.999Z", "2026-12-31"],
    ["2027-01-01T00:00:00.000Z", "2027-01-01"],
  ])("at %s it is %s in the UK", (instant, expected) => {
    expect(ukDate(new Date(instant))).toBe(expected);
  });
});

describe("ukMidnight", () => {
  it("is 00:00 UTC in winter and 23:00 UTC the day before in summer", () => {
    expect(new Date(ukMidnight("2026-11-24")!).toISOString()).toBe(
      "2026-11-24T00:00:00.000Z",
    );
    expect(new Date(ukMidnight("2026-07-01")!).toISOString()).toBe(
      "2026-06-30T23:00:00.000Z",
    );
  });

  it("holds on the days the clocks change", () => {
    // Clocks go forward at 01:00 UTC on 29 March 2026 and back at 01:00 UTC on 25 October.
    expect(new Date(ukMidnight("2026-03-29")!).toISOString()).toBe(
      "2026-03-29T00:00:00.000Z",
    );
    expect(new Date(ukMidnight("2026-03-30")!).toISOString()).toBe(
      "2026-03-29T23:00:00.000Z",
    );
    expect(new Date(ukMidnight("2026-10-25")!).toISOString()).toBe(
      "2026-10-24T23:00:00.000Z",
    );
    expect(new Date(ukMidnight("2026-10-26")!).toISOString()).toBe(
      "2026-10-26T00:00:00.000Z",
    );
  });

  it("refuses text that is not a calendar date", () => {
    for (const text of ["", "2026-02-30", "24/11/2026", "2026-11-24T00:00"])
      expect(ukMidnight(text)).toBeUndefined();
  });
});
