import { describe, expect, it } from "vitest";
import { factOrigin, RECORDS_LABEL } from "./fact-origin.ts";

const LIVE = {
  source: "dvsa-mot-history",
  asOf: "2026-11-29T09:15:00.000Z",
} as const;

describe("factOrigin", () => {
  it("names the live register that gave a tax or MOT fact, by its short name", () => {
    expect(
      factOrigin("mot", { mot: LIVE }, "2026-11-28T06:00:00.000Z"),
    ).toEqual({
      label: "DVSA",
      asOf: LIVE.asOf,
      stale: false,
      live: true,
    });
  });

  it("gives VICS's records for insurance and fines, and for tax or MOT no register gave", () => {
    const records = {
      label: RECORDS_LABEL,
      asOf: "2026-11-28T06:00:00.000Z",
      stale: false,
      live: false,
    };
    expect(factOrigin("insurance", { mot: LIVE }, records.asOf)).toEqual(
      records,
    );
    expect(factOrigin("fines", { mot: LIVE }, records.asOf)).toEqual(records);
    expect(factOrigin("tax", { mot: LIVE }, records.asOf)).toEqual(records);
    expect(RECORDS_LABEL).toBe("VICS records");
  });

  it("says nothing when the answer dates neither (an older service)", () => {
    expect(factOrigin("insurance", {}, undefined)).toBeUndefined();
  });
});
