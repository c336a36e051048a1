// The registrations DVLA's VES test environment documents ("VES API Test Environment", its mock
// responses page), as that environment answers them: dates relative to the day asked, as
// YYYY-MM-DD. The tax and MOT facts are the documented ones; a vehicle's other fields are the
// page's where it shows them, else a few of our own. AA19DSL and AA19AMP are left out: their
// answers are not documented.
import { addDays, addYears, type IsoDate } from "@vics/shared";
import type { VesVehicle } from "../../sources/dvla-ves-vehicle.ts";

/** An error answer of the test environment: status, body, and Retry-After where it sends one. */
export interface VesErrorAnswer {
  status: number;
  body: unknown;
  retryAfterSeconds?: number;
}

const error = (status: number, title: string, detail: string) => ({
  errors: [{ status: String(status), code: String(status), title, detail }],
});

export const VES_TEST_ERRORS: Record<string, VesErrorAnswer> = {
  ER19BAD: {
    status: 400,
    body: error(
      400,
      "Bad Request",
      "Invalid format for field - vehicle registration number",
    ),
  },
  ER19NFD: {
    status: 404,
    body: error(404, "Vehicle Not Found", "Record for vehicle not found"),
  },
  ER19THR: {
    status: 429,
    body: error(429, "Too Many Requests", "Too many requests"),
    retryAfterSeconds: 30,
  },
  ER19ERR: {
    status: 500,
    body: error(500, "Internal Server Error", "System Error occurred"),
  },
  // The test environment sends this one as a bare array, its status a number.
  ER19MNT: {
    status: 503,
    body: [
      {
        status: 503,
        title: "System currently down for maintenance",
        detail:
          "The service is currently down for maintenance, please contact support for more information",
      },
    ],
    retryAfterSeconds: 120,
  },
};

/** The documented vehicles as the test environment answers them on `today`. */
export function vesTestVehicles(today: IsoDate): Record<string, VesVehicle> {
  const inAYear = addYears(today, 1);
  const ford = {
    make: "FORD",
    colour: "RED",
    markedForExport: false,
    dateOfLastV5CIssued: "2019-05-20",
  };
  return {
    AA19AAA: {
      ...ford,
      registrationNumber: "AA19AAA",
      taxStatus: "Taxed",
      taxDueDate: inAYear,
      artEndDate: "2025-03-30",
      motStatus: "No details held by DVLA",
      yearOfManufacture: 2019,
      monthOfFirstRegistration: "2019-03",
      monthOfFirstDvlaRegistration: "2019-03",
      fuelType: "PETROL",
      co2Emissions: 300,
      engineCapacity: 2000,
      euroStatus: "EURO1",
      revenueWeight: 0,
      typeApproval: "M1",
      wheelplan: "2 AXLE RIGID BODY",
      realDrivingEmissions: "1",
    },
    AA19EEE: {
      ...ford,
      registrationNumber: "AA19EEE",
      taxStatus: "Taxed",
      taxDueDate: inAYear,
      motStatus: "No results returned",
      yearOfManufacture: 2019,
      monthOfFirstRegistration: "2019-03",
      fuelType: "ELECTRICITY",
      co2Emissions: 200,
    },
    AA19PPP: {
      ...ford,
      registrationNumber: "AA19PPP",
      taxStatus: "Taxed",
      taxDueDate: inAYear,
      yearOfManufacture: 2016,
      monthOfFirstRegistration: "2016-09",
      revenueWeight: 44000,
      wheelplan: "3 AXLE + 3 AXLE ARTIC",
    },
    L2WPS: {
      registrationNumber: "L2WPS",
      taxStatus: "Untaxed",
      taxDueDate: addDays(today, -92),
      make: "KAWASAKI",
      colour: "BLACK",
    },
    AA19SRN: {
      ...ford,
      registrationNumber: "AA19SRN",
      taxStatus: "SORN",
      yearOfManufacture: 2019,
      monthOfFirstRegistration: "2019-03",
    },
    AA19MOT: {
      ...ford,
      registrationNumber: "AA19MOT",
      taxStatus: "Taxed",
      taxDueDate: inAYear,
      motStatus: "Valid",
      motExpiryDate: inAYear,
      yearOfManufacture: 2019,
      monthOfFirstRegistration: "2019-03",
    },
  };
}
