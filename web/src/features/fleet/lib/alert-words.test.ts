import { describe, expect, it } from "vitest";
import type { Alert, WatchedVehicle } from "@vics/shared";
import { alertWords, watchedStatus } from "./alert-words.ts";

const alert = (kind: Alert["kind"], detail: Alert["detail"]): Alert => ({
  id: 1,
  registration: "AB12CDE",
  kind,
  detail,
  openedAt: "2026-11-27T06:00:00.000Z",
  closedAt: null,
});

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
      alert("untaxed", { status: "sorn", dueDate: null }),
      "Declared off the road (SORN)",
    ],
    [
      alert("new-fine", { count: 2, totalPence: 16000 }),
      "New fine: 2 outstanding, £160.00 in all",
    ],
    [alert("not-found", {}), "No longer found on the register"],
  ])("%#: says it in words with its date", (given, words) => {
    expect(alertWords(given)).toBe(words);
  });
});

describe("watchedStatus", () => {
  const vehicle = (change: Partial<WatchedVehicle>): WatchedVehicle => ({
    registration: "AB12CDE",
    cells: [],
    addedAt: "2026-11-20T09:00:00.000Z",
    checkedAt: null,
    unknownSince: null,
    facts: null,
    alerts: [],
    ...change,
  });
  it("never shows a stale green: unknown wins over the last facts", () => {
    expect(
      watchedStatus(
        vehicle({
          unknownSince: "2026-11-27T06:00:00.000Z",
          facts: {
            found: true,
            insurance: {
              status: "insured",
              policy: {
                number: "P",
                insurer: "I",
                validFrom: "2026-01-01",
                validTo: "2027-01-01",
              },
            },
          },
        }),
      ),
    ).toEqual({
      status: "unknown",
      words: "Unknown since 06:00 on 27 November 2026",
    });
  });
  it("says when it was never checked, pending and not found", () => {
    expect(watchedStatus(vehicle({})).words).toBe("Not checked yet");
    expect(
      watchedStatus(
        vehicle({
          facts: {
            found: true,
            insurance: { status: "pending", firstRegistered: "2026-11-20" },
          },
        }),
      ).status,
    ).toBe("pending");
    expect(watchedStatus(vehicle({ facts: { found: false } })).status).toBe(
      "not-found",
    );
  });
});
