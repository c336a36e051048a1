import { describe, expect, it } from "vitest";
import { REGISTER_WORDS, resetWords, turnOnWords } from "./register-words.ts";

describe("resetWords", () => {
  it("says the UTC midnight in UK time: 01:00 in summer, when the UK's day is an hour ahead", () => {
    // 00:30 UK time on 1 July is still 30 June in UTC: the count is the day before's.
    expect(resetWords(new Date("2026-06-30T23:30:00Z"))).toBe(
      "Resets at 00:00 UTC (01:00 UK time)",
    );
    expect(resetWords(new Date("2026-07-01T12:00:00Z"))).toBe(
      "Resets at 00:00 UTC (01:00 UK time)",
    );
  });

  it("says 00:00 UK time in winter, when UTC is UK time", () => {
    expect(resetWords(new Date("2026-11-29T12:00:00Z"))).toBe(
      "Resets at 00:00 UTC (00:00 UK time)",
    );
  });
});

describe("the registers' names", () => {
  it("gives the long names on the sources page", () => {
    expect(REGISTER_WORDS["dvla-ves"].name).toBe(
      "DVLA Vehicle Enquiry Service",
    );
    expect(REGISTER_WORDS["dvsa-mot-history"].name).toBe(
      "DVSA MOT History API",
    );
  });

  it("points to docs/sources.md as a file in VICS's repository, not a link", () => {
    expect(turnOnWords("dvla-ves")).toBe(
      "set DVLA_VES_API_KEY_FILE in the service's environment; see docs/sources.md in VICS's repository",
    );
  });
});
