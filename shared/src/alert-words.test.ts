import { describe, expect, it } from "vitest";
import { alertWords, type AlertToWord } from "./alert-words.ts";

const alert = (
  kind: AlertToWord["kind"],
  detail: AlertToWord["detail"],
): AlertToWord => ({ kind, detail });

describe("alertWords", () => {
  it.each([
    [
      alert("not-insured", {
        how: "lapsed",
        policy: "POL-1",
        endedOn: "2026-11-19",
      }),
      "Not insured: policy POL-1 lapsed on 19 November 2026",
    ],
    [
      alert("not-insured", {
        how: "cancelled",
        policy: "POL-1",
        endedOn: "2026-11-19",
      }),
      "Not insured: policy POL-1 was cancelled, ending on 19 November 2026",
    ],
    [
      alert("not-insured", { how: "never" }),
      "Not insured: no policy on record",
    ],
    [
      alert("insured-again", {
        policy: "POL-2",
        insurer: "Northwind Mutual",
        validTo: "2027-12-01",
      }),
      "Insured again: policy POL-2 with Northwind Mutual",
    ],
    [
      alert("ending", { area: "mot", date: "2026-12-11", threshold: 14 }),
      "MOT ends within 14 days (11 December 2026)",
    ],
    [
      alert("ending", { area: "tax", date: "2026-11-28", threshold: 1 }),
      "Road tax ends tomorrow (28 November 2026)",
    ],
    [
      alert("ending", { area: "insurance", date: "2026-11-27", threshold: 0 }),
      "Insurance ends today (27 November 2026)",
    ],
    [
      alert("mot-expired", { expiry: "2027-05-01" }),
      "MOT expired on 1 May 2027",
    ],
    [alert("mot-expired", { expiry: null }), "MOT expired"],
    [
      alert("untaxed", { status: "sorn", dueDate: null }),
      "Declared off the road (SORN)",
    ],
    [alert("untaxed", { status: "untaxed", dueDate: null }), "Untaxed"],
    [
      alert("new-fine", { count: 2, totalPence: 16000 }),
      "New fine: 2 outstanding, £160.00 in all",
    ],
    [alert("fines-paid", {}), "Fines paid"],
    [alert("not-found", {}), "No longer found on the register"],
  ])("%#: says it in words with its date", (given, words) => {
    expect(alertWords(given)).toBe(words);
  });

  it("says only 'Not insured' when the upstream did not say which policy ended: never 'no policy on record'", () => {
    const words = alertWords(
      alert("not-insured", {
        how: "not told",
        policy: null,
        insurer: null,
        endedOn: null,
      }),
    );
    expect(words).toBe("Not insured");
  });

  it("does not throw on a detail without its date (an email with one bad alert still goes)", () => {
    expect(alertWords(alert("ending", { area: "tax", threshold: 7 }))).toBe(
      "Road tax ends within 7 days",
    );
    expect(
      alertWords(alert("not-insured", { how: "lapsed", policy: "POL-1" })),
    ).toBe("Not insured: policy POL-1 lapsed");
  });
});
