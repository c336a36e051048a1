import { describe, expect, it } from "vitest";
import type { ComplianceOutcome, VehicleResult } from "../fleet-types.ts";
import { exportHeader, exportRows } from "./export-table.ts";
import { RESULTS, ROWS, RUN, TODAY } from "./export-test-run.ts";
import { SOURCE_COLUMNS, sourceCells } from "./source-cells.ts";

const CHECKED = RESULTS.get("AB12CDE")!.compliance as Extract<
  ComplianceOutcome,
  { status: "checked" }
>;

/** The four source cells by column name. */
function named(compliance: ComplianceOutcome | undefined) {
  const cells = sourceCells(compliance);
  return Object.fromEntries(
    SOURCE_COLUMNS.map((name, index) => [name, cells[index]]),
  );
}

describe("sourceCells", () => {
  it("names the live register and the UK date and time it answered, and VICS's records for the rest", () => {
    expect(
      named({
        ...CHECKED,
        factSources: {
          tax: { source: "dvla-ves", asOf: "2026-11-23T10:02:00.000Z" },
        },
        recordsAsOf: {
          tax: "2026-11-22T06:00:00.000Z",
          mot: "2026-11-22T06:00:00.000Z",
        },
      }),
    ).toEqual({
      "Road tax source": "DVLA",
      "Road tax as of (UK time)": "2026-11-23 10:02",
      "MOT source": "VICS records",
      "MOT as of (UK time)": "2026-11-22 06:00",
    });
  });

  it("says a stale fact is the stored one, in words a file can keep; times in UK summer time", () => {
    expect(
      named({
        ...CHECKED,
        factSources: {
          mot: {
            source: "dvsa-mot-history",
            asOf: "2026-07-01T23:30:00.000Z",
            stale: true,
          },
        },
      }),
    ).toEqual({
      "Road tax source": "",
      "Road tax as of (UK time)": "",
      "MOT source": "DVSA (stored fact: could not be refreshed)",
      "MOT as of (UK time)": "2026-07-02 00:30",
    });
  });

  it("is blank from an older service that says neither, and for a vehicle without an answer", () => {
    expect(sourceCells(CHECKED)).toEqual(["", "", "", ""]);
    expect(sourceCells({ status: "not-found" })).toEqual(["", "", "", ""]);
    expect(sourceCells(undefined)).toEqual(["", "", "", ""]);
  });
});

describe("the export's source columns", () => {
  it("carry each row's own sources, last in a compliance run's file", () => {
    const run = { ...RUN, checkCompliance: true };
    const result: VehicleResult = {
      ...RESULTS.get("AB12CDE")!,
      compliance: {
        ...CHECKED,
        factSources: {
          mot: { source: "dvsa-mot-history", asOf: "2026-11-22T09:15:00Z" },
        },
        recordsAsOf: { tax: "2026-11-22T06:00:00.000Z" },
      },
    };
    const results = new Map(RESULTS).set("AB12CDE", result);
    const header = exportHeader(run, TODAY);
    const [first] = exportRows(ROWS, results, run, TODAY);
    expect(header.slice(-4)).toEqual(SOURCE_COLUMNS);
    expect(first?.slice(-4)).toEqual([
      "VICS records",
      "2026-11-22 06:00",
      "DVSA",
      "2026-11-22 09:15",
    ]);
  });
});
