import { describe, expect, it } from "vitest";
import { fetched } from "../testing/fetched.ts";
import {
  type HeldVehicle,
  planFetched,
  testForExpiry,
} from "./fetched-plan.ts";

describe("testForExpiry", () => {
  it.each([
    ["2027-01-10", "2026-03-11T08:00:00.000Z", "2026-01-11"],
    // A test on 1 March 2027 runs to 29 February 2028.
    ["2028-02-29", "2027-12-01T08:00:00.000Z", "2027-03-01"],
    ["2027-02-28", "2026-12-01T08:00:00.000Z", "2026-03-01"],
    // Renewed early: dated the day it was fetched, never after.
    ["2027-12-01", "2026-11-29T08:00:00.000Z", "2026-11-29"],
    // 23:30 UTC on 30 June is 1 July in the UK.
    ["2027-12-01", "2026-06-30T23:30:00.000Z", "2026-07-01"],
  ])("an expiry of %s fetched at %s is a test on %s", (expiresOn, at, on) => {
    expect(testForExpiry(expiresOn, at)).toEqual({ testedOn: on, expiresOn });
  });
});

const held: HeldVehicle = {
  model: "Focus",
  tax: { sorn: false, dueDate: "2026-09-06" },
  motTests: [{ testedOn: "2026-01-09", expiresOn: "2027-01-08" }],
  updatedAt: "2026-03-12T00:00:00.000Z",
};
const taxed = (dueDate: string, fetchedAt: string) =>
  fetched(
    { registration: "AB12CDE", tax: { sorn: false, dueDate } },
    fetchedAt,
  );

describe("planFetched", () => {
  it("dates a change fetched before the held version at that version's instant: periods never run backwards", () => {
    const plan = planFetched(
      [taxed("2027-01-31", "2026-03-11T08:00:00Z")],
      new Map([["AB12CDE", held]]),
    );
    expect(plan.changed).toEqual([
      expect.objectContaining({ at: held.updatedAt, source: "dvla-ves" }),
    ]);
    expect(plan.fresh).toEqual([
      {
        registration: "AB12CDE",
        kind: "tax",
        source: "dvla-ves",
        fetchedAt: "2026-03-11T08:00:00.000Z",
      },
    ]);
  });

  it("folds two answers for one vehicle into one version, dated at the later change, with one mark per kind", () => {
    const plan = planFetched(
      [
        taxed("2027-02-28", "2026-03-14T08:00:00Z"),
        taxed("2027-01-31", "2026-03-13T08:00:00Z"),
      ],
      new Map([["AB12CDE", held]]),
    );
    expect(plan.changed).toHaveLength(1);
    expect(plan.changed[0]).toMatchObject({
      at: "2026-03-14T08:00:00.000Z",
      tax: { sorn: false, dueDate: "2027-02-28" },
      motWrites: [],
    });
    expect(plan.fresh.map((mark) => mark.fetchedAt)).toEqual([
      "2026-03-14T08:00:00.000Z",
    ]);
    expect(plan.firstChange).toBe("2026-03-14T08:00:00.000Z");
  });

  it("marks fresh each kind the source was asked for, those the answer lacks changing nothing", () => {
    const at = "2026-03-13T08:00:00.000Z";
    const plan = planFetched(
      [
        {
          ...fetched({ registration: "AB12CDE", vehicle: {} }, at),
          asked: ["tax", "mot"],
        },
      ],
      new Map([["AB12CDE", held]]),
    );
    expect(plan).toMatchObject({ changed: [], unchanged: 1 });
    const mark = { registration: "AB12CDE", source: "dvla-ves", fetchedAt: at };
    expect(plan.fresh).toEqual([
      { ...mark, kind: "tax" },
      { ...mark, kind: "mot" },
      { ...mark, kind: "vehicle" },
    ]);
  });
});
