// Watched vehicles for the tests of the saved fleets, a saved fleet's page, its filters and its
// exports: one insured by default, changed as each test needs; and the fleet that holds them.
import type {
  Alert,
  FleetSummary,
  SavedFleet,
  WatchedVehicle,
} from "@vics/shared";

/** North depot, with `vehicleCount` vehicles and a Driver column. */
export function fleetSummary(vehicleCount: number): FleetSummary {
  return {
    id: "fleet-1",
    name: "North depot",
    vehicleCount,
    columns: ["Driver"],
    version: 1,
    created: { at: "2026-11-20T09:00:00.000Z", by: "ann@example.org" },
    updated: { at: "2026-11-26T15:30:00.000Z", by: "bob@example.org" },
  };
}

/** The saved fleet the proxy answers with for `summary` holding these vehicles. */
export function savedFleet(
  summary: FleetSummary,
  vehicles: readonly WatchedVehicle[],
): SavedFleet {
  return {
    ...summary,
    vehicles: vehicles.map((v) => ({
      registration: v.registration,
      cells: v.cells,
      addedAt: v.addedAt,
    })),
  };
}

export function watchedVehicle(
  change: Partial<WatchedVehicle>,
): WatchedVehicle {
  return {
    registration: "AB12CDE",
    cells: ["Ann"],
    addedAt: "2026-11-20T09:00:00.000Z",
    checkedAt: "2026-11-27T06:00:00.000Z",
    unknownSince: null,
    facts: {
      found: true,
      insurance: {
        status: "insured",
        policy: {
          number: "POL-1",
          insurer: "Northwind Mutual",
          validFrom: "2026-01-01",
          validTo: "2027-01-31",
        },
      },
    },
    alerts: [],
    ...change,
  };
}

export const lapsedAlert: Alert = {
  id: 7,
  registration: "LP08SED",
  kind: "not-insured",
  detail: { how: "lapsed", policy: "POL-9", endedOn: "2026-11-07" },
  openedAt: "2026-11-08T06:00:00.000Z",
  closedAt: null,
};

/** Lee's van: its policy lapsed on 7 November, alerted the day after. */
export const lapsedVan = watchedVehicle({
  registration: "LP08SED",
  cells: ["Lee"],
  facts: {
    found: true,
    insurance: {
      status: "not-insured",
      lastPolicy: {
        number: "POL-9",
        insurer: "Northwind Mutual",
        validFrom: "2025-11-01",
        validTo: "2026-11-07",
      },
    },
  },
  alerts: [lapsedAlert],
});

/** Kim's car: insured at the last answer, no answer since. */
export const unknownCar = watchedVehicle({
  registration: "ER19ERR",
  cells: ["Kim"],
  unknownSince: "2026-11-27T06:00:00.000Z",
});

/** Max's truck: insured, but its MOT has expired. */
export const motExpiredTruck = watchedVehicle({
  registration: "MT15EXP",
  cells: ["Max"],
  alerts: [
    {
      id: 9,
      registration: "MT15EXP",
      kind: "mot-expired",
      detail: { expiry: "2026-10-01" },
      openedAt: "2026-10-02T06:00:00.000Z",
      closedAt: null,
    },
  ],
});

/** Lee's van's insurance as it moved on 8 November: POL-9 lapsed. */
export const vanLapse: NonNullable<WatchedVehicle["changes"]>[number] = {
  at: "2026-11-08T06:00:00.000Z",
  area: "insurance",
  before: {
    status: "insured",
    policy: {
      number: "POL-9",
      insurer: "Northwind Mutual",
      validFrom: "2025-11-01",
      validTo: "2026-11-07",
    },
  },
  after: { status: "not-insured", lastPolicy: null },
};
