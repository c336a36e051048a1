import { describe, expect, it } from "vitest";
import {
  figuresTable,
  pageFigures,
  pagesOverTarget,
  type LighthouseReport,
} from "./figures.ts";

const report = (
  overrides: Partial<LighthouseReport> = {},
): LighthouseReport => ({
  audits: {
    "cumulative-layout-shift": { numericValue: 0.16234 },
    "unused-javascript": { details: { overallSavingsBytes: 196_608 } },
    "total-byte-weight": { numericValue: 512_000 },
  },
  categories: { accessibility: { score: 1 }, performance: { score: 0.876 } },
  ...overrides,
});

describe("pageFigures", () => {
  it("reads CLS, unused JS and transfer in KiB, and the scores out of 100", () => {
    expect(pageFigures("Insurance check", "/", report())).toEqual({
      page: "Insurance check",
      path: "/",
      cls: 0.162,
      unusedJsKiB: 192,
      transferKiB: 500,
      accessibility: 100,
      performance: 88,
    });
  });

  it("counts no unused-JS details as none, and a missing figure as null", () => {
    const figures = pageFigures(
      "Fleet check",
      "/fleet",
      report({
        audits: { "unused-javascript": {} },
        categories: { accessibility: { score: null } },
      }),
    );
    expect(figures).toMatchObject({
      cls: null,
      unusedJsKiB: 0,
      transferKiB: null,
      accessibility: null,
      performance: null,
    });
  });
});

describe("figuresTable", () => {
  it("prints a header and a line per page, numbers right-aligned", () => {
    const rows = [
      pageFigures("Insurance check", "/", report()),
      pageFigures("Fleet check", "/fleet", report({ audits: {} })),
    ];
    expect(figuresTable(rows).split("\n")).toEqual([
      "Page                    CLS  Unused JS KiB  Transfer KiB  Accessibility  Performance",
      "Insurance check (/)   0.162            192           500            100           88",
      "Fleet check (/fleet)      -              0             -            100           88",
    ]);
  });
});

describe("pagesOverTarget", () => {
  it("names pages at or over CLS 0.1, and pages with no CLS", () => {
    const rows = [
      { ...pageFigures("a", "/a", report()), cls: 0.099 },
      { ...pageFigures("b", "/b", report()), cls: 0.1 },
      { ...pageFigures("c", "/c", report()), cls: null },
    ];
    expect(pagesOverTarget(rows).map((row) => row.page)).toEqual(["b", "c"]);
  });
});
