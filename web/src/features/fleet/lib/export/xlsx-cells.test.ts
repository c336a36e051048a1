import { describe, expect, it } from "vitest";
import { isoDate, plainNumber, xlsxCell } from "./xlsx-cells.ts";

describe("plainNumber", () => {
  it.each([
    ["1000", 1000],
    ["-3", -3],
    ["2.5", 2.5],
    ["0", 0],
    ["0.5", 0.5],
    ["123456789012345", 123456789012345],
  ])("%j is the number %d", (text, value) => {
    expect(plainNumber(text)).toBe(value);
  });

  it.each([
    ["a leading zero", "007"],
    ["an exponent", "1e5"],
    ["a trailing zero", "2.50"],
    ["minus zero", "-0"],
    ["a plus sign", "+5"],
    ["16 digits (an id Excel would round)", "1234567890123456"],
    ["16 digits with a point", "123456789.0123456"],
    ["a thousands separator", "1,000"],
    ["a bare point", ".5"],
    ["spaces", " 5"],
    ["a fleet number", "F1"],
    ["a date", "2024-03-01"],
  ])("%s (%j) is text", (_name, text) => {
    expect(plainNumber(text)).toBeUndefined();
  });
});

describe("isoDate", () => {
  it.each(["2024-03-01", "2024-02-29", "1900-03-01", "9999-12-31"])(
    "%s is that day, at midnight UTC",
    (text) => {
      expect(isoDate(text)?.toISOString()).toBe(`${text}T00:00:00.000Z`);
    },
  );

  it.each([
    "2026-02-30",
    "2025-02-29",
    "2026-13-01",
    "2026-00-10",
    "2026-1-5",
    "1900-02-28",
    "01/03/2024",
    "2024-03-01T10:00:00Z",
  ])("%s is not a date Excel can hold", (text) => {
    expect(isoDate(text)).toBeUndefined();
  });
});

describe("xlsxCell", () => {
  it.each<[string, Parameters<typeof xlsxCell>[1], unknown]>([
    ["", "user", null],
    ["42", "number", { value: 42, type: Number }],
    ["2.5", "number", { value: "2.5", type: String }],
    ["2024-03-01", "number", { value: "2024-03-01", type: String }],
    ["1000", "text", { value: "1000", type: String }],
    ["2024-03-01", "text", { value: "2024-03-01", type: String }],
    ["1000", "date", { value: "1000", type: String }],
    ["=1+1", "user", { value: "=1+1", type: String }],
    ["£120.00", "text", { value: "£120.00", type: String }],
    ["£1.5", "money", { value: "£1.5", type: String }],
    ["120.00", "money", { value: "120.00", type: String }],
  ])("%j in a %s column", (text, kind, cell) => {
    expect(xlsxCell(text, kind)).toEqual(cell);
  });

  it("writes a date with a date format", () => {
    expect(xlsxCell("2024-03-01", "date")).toEqual({
      value: new Date("2024-03-01T00:00:00Z"),
      type: Date,
      format: "dd/mm/yyyy",
    });
  });

  it("writes a source's as-of time as an Excel date and time showing the UK time the file wrote", () => {
    expect(xlsxCell("2026-11-29 10:02", "datetime")).toEqual({
      value: new Date("2026-11-29T10:02:00Z"),
      type: Date,
      format: "dd/mm/yyyy hh:mm",
    });
  });

  it.each([
    "2026-11-29",
    "2026-02-30 10:02",
    "2026-11-29 24:00",
    "VICS records",
  ])("keeps %j in a date-time column as text", (text) => {
    expect(xlsxCell(text, "datetime")).toEqual({ value: text, type: String });
  });

  it.each([
    ["£120.00", 120],
    ["£0.07", 0.07],
    ["£1,200.50", 1200.5],
    ["£1234.56", 1234.56],
    ["£150", 150],
    ["-£5.00", -5],
  ])(
    "writes %j in a money column as the number %d, shown in pounds",
    (text, value) => {
      expect(xlsxCell(text, "money")).toEqual({
        value,
        type: Number,
        format: "£#,##0.00",
      });
    },
  );
});
