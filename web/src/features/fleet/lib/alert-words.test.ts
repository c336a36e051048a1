import { describe, expect, it } from "vitest";
import type { WatchedVehicle } from "@vics/shared";
import { watchedStatus } from "./alert-words.ts";

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
