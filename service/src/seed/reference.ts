import {
  type Policy,
  REFERENCE_REGISTRATIONS,
  addDays,
  addYears,
  type IsoDate,
  yearOf,
} from "@vics/shared";
import { MOT_EXEMPT_YEARS } from "../domain/compliance.ts";
import { agePeriod } from "./plates.ts";
import type { VehicleFacts } from "../domain/vehicle-facts.ts";

type ReferenceRegistration = (typeof REFERENCE_REGISTRATIONS)[number];

function policy(
  number: string,
  insurer: string,
  validFrom: IsoDate,
  validTo: IsoDate,
  type = "Comprehensive",
): Policy {
  return { number, insurer, validFrom, validTo, type };
}

const later = (a: IsoDate, b: IsoDate) => (a > b ? a : b);
const earlier = (a: IsoDate, b: IsoDate) => (a < b ? a : b);

/**
 * A first registration for a reference vehicle the contract needs under 3 years old: in the
 * period its plate's age identifier names (so "NW25CAR" shows 2025), as near `daysAgo` days
 * before the seeding day as that period allows, never after the seeding day and always less
 * than 3 years before it. No fixed date can do that for ever: when no day of the period fits
 * (seeded before the plate was issued, or once the whole period is 3 years past, for a "25"
 * plate from September 2028), it is the plain relative day, and the vehicle's year then
 * differs from its plate's. The contract's outcome comes first.
 */
function recentFirstRegistration(
  today: IsoDate,
  registration: ReferenceRegistration,
  daysAgo: number,
): IsoDate {
  const plate = agePeriod(registration.slice(2, 4));
  const earliest = later(
    plate.from,
    addDays(addYears(today, -MOT_EXEMPT_YEARS), 1),
  );
  const latest = earlier(plate.to, today);
  const relative = addDays(today, -daysAgo);
  if (earliest > latest) return relative;
  return later(earliest, earlier(relative, latest));
}

/** Builds one reference vehicle whose checks all pass unless `changes` says otherwise. */
function vehicle(
  today: IsoDate,
  registration: ReferenceRegistration,
  firstRegistered: IsoDate,
  make: string,
  model: string,
  color: string,
  changes: Partial<VehicleFacts> = {},
): VehicleFacts {
  return {
    registration,
    vehicle: { make, model, year: yearOf(firstRegistered), color },
    firstRegistered,
    lastUpdated: `${addDays(today, -1)}T09:30:00.000Z`,
    policies: [
      policy(
        `REF-${registration}`,
        "Acorn Mutual",
        addDays(today, -120),
        addDays(today, 245),
      ),
    ],
    motTests: [
      { testedOn: addDays(today, -60), expiresOn: addDays(today, 304) },
    ],
    tax: { sorn: false, dueDate: addDays(today, 180) },
    fines: [],
    ...changes,
  };
}

/** Dates are relative to the seeding day, as the contract's table reads. */
export function referenceVehicles(today: IsoDate): VehicleFacts[] {
  const lapsedOn = addDays(today, -20);
  const expiringFirstRegistered = recentFirstRegistration(
    today,
    "EX26SON",
    200,
  );
  return [
    vehicle(today, "AB12CDE", "2012-03-14", "Ford", "Focus", "Blue"),
    vehicle(today, "UN51NSD", "2001-10-02", "Vauxhall", "Astra", "Silver", {
      policies: [],
    }),
    vehicle(today, "LP08SED", "2008-05-20", "Toyota", "Yaris", "Red", {
      policies: [
        policy(
          "REF-LP08SED-1",
          "Kestrel Direct",
          addDays(addYears(lapsedOn, -2), 1),
          addYears(lapsedOn, -1),
          "Third Party Only",
        ),
        policy(
          "REF-LP08SED-2",
          "Kestrel Direct",
          addDays(addYears(lapsedOn, -1), 1),
          lapsedOn,
          "Third Party, Fire and Theft",
        ),
      ],
    }),
    vehicle(today, "MT15EXP", "2015-04-09", "Nissan", "Qashqai", "Grey", {
      motTests: [
        { testedOn: addDays(today, -410), expiresOn: addDays(today, -45) },
      ],
    }),
    vehicle(
      today,
      "NW25CAR",
      recentFirstRegistration(today, "NW25CAR", 300),
      "Kia",
      "Niro",
      "White",
      { motTests: [] },
    ),
    vehicle(today, "TX19NON", "2019-06-01", "Peugeot", "208", "Yellow", {
      tax: { sorn: false, dueDate: addDays(today, -30) },
    }),
    vehicle(today, "SR19ORN", "2019-07-12", "Renault", "Clio", "Black", {
      tax: { sorn: true, dueDate: null },
    }),
    vehicle(today, "FN19OUT", "2019-03-22", "Skoda", "Octavia", "Green", {
      // Two unpaid fines (GBP 150) and one paid one, which must not count.
      fines: [
        { issuedOn: addDays(today, -90), amountPence: 10_000, paid: false },
        { issuedOn: addDays(today, -40), amountPence: 5_000, paid: false },
        { issuedOn: addDays(today, -400), amountPence: 6_000, paid: true },
      ],
    }),
    vehicle(today, "BD19ALL", "2019-04-30", "BMW", "3 Series", "Purple", {
      policies: [
        policy(
          "REF-BD19ALL",
          "Pennine Cover",
          addDays(today, -500),
          addDays(today, -136),
          "Third Party Only",
        ),
      ],
      motTests: [
        { testedOn: addDays(today, -500), expiresOn: addDays(today, -136) },
      ],
      tax: { sorn: false, dueDate: addDays(today, -75) },
      fines: [
        { issuedOn: addDays(today, -60), amountPence: 10_000, paid: false },
      ],
    }),
    vehicle(
      today,
      "EX26SON",
      expiringFirstRegistered,
      "Tesla",
      "Model 3",
      "Red",
      {
        policies: [
          policy(
            "REF-EX26SON",
            "Harbour Insurance",
            // From its first registration, or 200 days ago for an older car: a year's cover
            // cut short by its new owner.
            later(expiringFirstRegistered, addDays(today, -200)),
            addDays(today, 10),
          ),
        ],
        motTests: [],
      },
    ),
  ];
}
