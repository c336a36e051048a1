import { describe, expect, it } from "vitest";
import {
  lapsedVan,
  motExpiredTruck,
  unknownCar,
  watchedVehicle,
} from "../testing/watched-fixtures.ts";
import {
  changedEntries,
  filterCounts,
  viewWatched,
  watchedEntries,
} from "./watched-view.ts";

const insured = watchedVehicle({});
const notChecked = watchedVehicle({
  registration: "NC70NEW",
  cells: ["Nia"],
  checkedAt: null,
  facts: null,
});
const all = watchedEntries([
  insured,
  notChecked,
  motExpiredTruck,
  unknownCar,
  lapsedVan,
]);
const registrations = (entries: { vehicle: { registration: string } }[]) =>
  entries.map((entry) => entry.vehicle.registration);

describe("a saved fleet's vehicles as its page shows them", () => {
  it("puts those needing action first, an insured vehicle with an alert among them; then the rest by status", () => {
    expect(registrations(all)).toEqual([
      "LP08SED",
      "ER19ERR",
      "MT15EXP",
      "NC70NEW",
      "AB12CDE",
    ]);
  });

  it("says a vehicle needs action for its status, or for any open alert however it is insured", () => {
    expect(
      all.map((entry) => [entry.vehicle.registration, entry.needsAction]),
    ).toEqual([
      ["LP08SED", true],
      ["ER19ERR", true],
      ["MT15EXP", true],
      ["NC70NEW", false],
      ["AB12CDE", false],
    ]);
  });

  it("filters by need of action or by status, and counts what each filter would show", () => {
    const show = (filter: Parameters<typeof viewWatched>[1]["filter"]) =>
      registrations(viewWatched(all, { filter, search: "" }));
    expect(show("needs-action")).toEqual(["LP08SED", "ER19ERR", "MT15EXP"]);
    expect(show("insured")).toEqual(["MT15EXP", "AB12CDE"]);
    expect(show("not-checked-yet")).toEqual(["NC70NEW"]);
    expect(show("not-found")).toEqual([]);
    expect(filterCounts(all)).toEqual({
      all: 5,
      "needs-action": 3,
      "not-insured": 1,
      unknown: 1,
      "not-found": 0,
      pending: 0,
      "not-checked-yet": 1,
      insured: 2,
    });
  });

  it("searches the registration however it is typed, and the team's own cells in any case", () => {
    const search = (text: string) =>
      registrations(viewWatched(all, { filter: "all", search: text }));
    expect(search("lp08 sed")).toEqual(["LP08SED"]);
    expect(search("LP08-SED")).toEqual(["LP08SED"]);
    expect(search("  kim ")).toEqual(["ER19ERR"]);
    // Max, Nia and Ann's cells; in the order of action.
    expect(search("a")).toEqual(["MT15EXP", "NC70NEW", "AB12CDE"]);
    expect(search("nobody")).toEqual([]);
    // The filter and the search together.
    expect(
      registrations(viewWatched(all, { filter: "insured", search: "max" })),
    ).toEqual(["MT15EXP"]);
  });

  it("keeps, with 'changed since', only the vehicles whose timeline has an entry", () => {
    const moved = watchedEntries([
      { ...insured, changes: [] },
      {
        ...lapsedVan,
        changes: [
          {
            at: "2026-11-08T06:00:00.000Z",
            area: "insurance",
            before: null,
            after: { status: "not-insured", lastPolicy: null },
          },
        ],
      },
    ]);
    expect(registrations(changedEntries(moved))).toEqual(["LP08SED"]);
  });
});
