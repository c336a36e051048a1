import { describe, expect, it } from "vitest";
import { readDate, statedDateFormat } from "./dates.ts";

describe("import dates", () => {
  it("reads each format only as itself", () => {
    expect(readDate("2026-11-24", "iso")).toEqual({
      ok: true,
      date: "2026-11-24",
    });
    expect(readDate("24/11/2026", "uk")).toEqual({
      ok: true,
      date: "2026-11-24",
    });
    expect(readDate("2026-11-24", "uk")).toMatchObject({
      ok: false,
      reason: expect.stringContaining("(--dates iso)"),
    });
    expect(readDate("11/24/2026", "uk")).toEqual({
      ok: false,
      reason: "There is no such day (DD/MM/YYYY).",
    });
  });

  it("knows leap days", () => {
    expect(readDate("29/02/2028", "uk").ok).toBe(true);
    expect(readDate("2027-02-29", "iso").ok).toBe(false);
  });

  it("finds the format a file states on its first line, and a typo in it", () => {
    expect(statedDateFormat("# dates: DD/MM/YYYY")).toBe("uk");
    expect(statedDateFormat("#Dates:yyyy-mm-dd")).toBe("iso");
    expect(statedDateFormat("registration,make")).toBeUndefined();
    expect(statedDateFormat("# dates: D/M/Y")).toEqual({ unknown: "D/M/Y" });
  });
});
