import { describe, expect, it } from "vitest";
import { notYetOnRecord, recordDeadline } from "./not-yet-on-record.ts";

describe("recordDeadline", () => {
  // The grace days alone: addDays' month, year and leap-day arithmetic is held by
  // shared's calendar-date.test.ts.
  it("gives the insurer 14 days from first registration", () => {
    expect(recordDeadline("2026-11-20")).toBe("2026-12-04");
  });
});

describe("notYetOnRecord", () => {
  const never = (firstRegistered: string) => ({
    lastPolicy: null,
    vehicle: {
      make: "Ford",
      model: "Focus",
      year: 2026,
      color: "Blue",
      firstRegistered,
    },
  });
  it("holds from the day of first registration to the deadline, not a day after", () => {
    expect(notYetOnRecord(never("2026-11-20"), "2026-11-20")).toBe(true);
    expect(
      notYetOnRecord(never("2026-11-20"), recordDeadline("2026-11-20")),
    ).toBe(true);
    expect(notYetOnRecord(never("2026-11-20"), "2026-12-05")).toBe(false);
    expect(notYetOnRecord(never("2026-11-20"), "2026-11-19")).toBe(false);
  });
});
