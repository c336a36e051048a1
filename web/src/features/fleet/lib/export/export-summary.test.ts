import { describe, expect, it } from "vitest";
import { exportSummary } from "./export-summary.ts";
import { RESULTS, ROWS, RUN, TODAY } from "./export-test-run.ts";

const INFO = {
  ...RUN,
  name: "fleet.xlsx",
  createdAt: "2026-11-23T09:00:00.000Z",
  listRows: 40,
};

/** The summary as label -> value, to read the tests by label. */
function summary(checkCompliance = false) {
  const lines = exportSummary(
    ROWS,
    RESULTS,
    { ...INFO, checkCompliance },
    TODAY,
  );
  return Object.fromEntries(lines.map((line) => [line.label, line.value]));
}

describe("exportSummary", () => {
  it("names the list and when it was run, and counts the rows", () => {
    expect(summary()).toMatchObject({
      List: "fleet.xlsx",
      "Run on": "23 November 2026 at 09:00",
      "Rows in this file": 11,
      "Rows in the list": 40,
      "Rows with an invalid registration": 2,
      "Rows excluded": 1,
      "Rows repeating a vehicle": 1,
    });
  });

  it("says how many rows the file holds only when it is not the whole list", () => {
    const lines = exportSummary(
      ROWS,
      RESULTS,
      { ...INFO, listRows: ROWS.length },
      TODAY,
    );
    expect(lines.map((line) => line.label)).not.toContain("Rows in this file");
  });

  it("counts the vehicles by outcome, those needing action first", () => {
    const lines = exportSummary(ROWS, RESULTS, INFO, TODAY);
    const vehicles = lines.filter((line) => line.group === "Vehicles");
    expect(vehicles.map((line) => [line.label, line.value])).toEqual([
      ["Vehicles checked", 7],
      ["Not insured", 1],
      ["Insured, cover ends within 30 days", 1],
      ["Not found", 1],
      ["Not checked", 1],
      ["Not checked yet", 1],
      ["Insured", 2],
    ]);
  });

  it("counts what falls due within 30 days", () => {
    expect(summary()).toMatchObject({
      "Vehicles with something due within 30 days": 1,
      "Insurance due within 30 days": 1,
      "MOT due within 30 days": 0,
      "Road tax due within 30 days": 0,
    });
  });

  it("adds compliance's counts when it was checked, and only then", () => {
    expect(summary(true)).toMatchObject({
      Compliant: 1,
      "Not compliant": 0,
    });
    expect(summary(false)).not.toHaveProperty("Compliant");
  });
});
