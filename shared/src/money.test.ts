import { describe, expect, it } from "vitest";
import { formatPounds, formatPoundsAndPence } from "./money.ts";

describe("formatPounds", () => {
  it.each([
    [0, "£0"],
    [5, "£0.05"],
    [6_000, "£60"],
    [6_050, "£60.50"],
    [100_000, "£1,000"],
  ])("%i pence is %s", (pence, pounds) => {
    expect(formatPounds(pence)).toBe(pounds);
  });
});

describe("formatPoundsAndPence", () => {
  it.each([
    [0, "£0.00"],
    [5, "£0.05"],
    [16_000, "£160.00"],
    [6_050, "£60.50"],
    [123_450, "£1234.50"],
  ])("%i pence is %s", (pence, pounds) => {
    expect(formatPoundsAndPence(pence)).toBe(pounds);
  });
});
