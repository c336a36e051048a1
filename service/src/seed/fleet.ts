import {
  isValidRegistration,
  addDays,
  addYears,
  type IsoDate,
  yearOf,
} from "@vics/shared";
import { MOT_EXEMPT_YEARS } from "../domain/compliance.ts";
import {
  COLOURS,
  INSURERS,
  MAKES,
  MODELS_BY_MAKE,
  POLICY_TYPES,
} from "./catalogue.ts";
import { syntheticPlate } from "./plates.ts";
import { type Random, seededRandom } from "./random.ts";
import type { Fine, MotTest } from "../domain/compliance.ts";
import type { VehicleFacts } from "../domain/vehicle-facts.ts";
import type { Policy } from "@vics/shared";

export const DEFAULT_FLEET_SIZE = 50_000;
export const DEFAULT_FLEET_SEED = 20260101;

export interface FleetOptions {
  size: number;
  seed: number;
  /** The seeding day: every date is relative to it. */
  today: IsoDate;
  /** Registrations the fleet must never produce (reference and sandbox ones). */
  reserved: ReadonlySet<string>;
}

// Rough shares of the UK fleet, so every outcome is common enough to find.
const SHARES = {
  neverInsured: 0.02,
  lapsed: 0.05,
  motExpired: 0.08,
  motMissing: 0.01,
  sorn: 0.04,
  untaxed: 0.03,
  fined: 0.06,
};

function firstRegistration(random: Random, today: IsoDate): IsoDate {
  // A few classics (25 to 60 years old), so old prefix and suffix plates exist too.
  if (random.chance(0.03))
    return addDays(today, -random.int(25 * 365, 60 * 365));
  // Skewed young: about a sixth of the fleet is under three years old.
  const ageDays = Math.floor(random.next() ** 1.2 * 25 * 365) + 7;
  return addDays(today, -ageDays);
}

function policyHistory(
  random: Random,
  today: IsoDate,
  firstRegistered: IsoDate,
  serial: number,
): Policy[] {
  if (random.chance(SHARES.neverInsured)) return [];
  const insurer = random.pick(INSURERS);
  const number = `${insurer.slice(0, 3).toUpperCase()}-${String(serial).padStart(8, "0")}`;
  const lapsed = random.chance(SHARES.lapsed / (1 - SHARES.neverInsured));
  const validTo = lapsed
    ? addDays(today, -random.int(1, 400))
    : addDays(today, random.int(0, 364));
  const validFrom = addDays(addYears(validTo, -1), 1);
  const policy = {
    number,
    insurer,
    validFrom: validFrom < firstRegistered ? firstRegistered : validFrom,
    validTo,
    type: random.pick(POLICY_TYPES),
  };
  if (policy.validFrom > validTo) policy.validFrom = validTo;
  return [policy];
}

function motHistory(
  random: Random,
  today: IsoDate,
  firstRegistered: IsoDate,
): MotTest[] {
  const firstDue = addYears(firstRegistered, MOT_EXEMPT_YEARS);
  if (firstDue > today || random.chance(SHARES.motMissing)) return [];
  const expiresOn = random.chance(SHARES.motExpired)
    ? addDays(today, -random.int(1, 500))
    : addDays(today, random.int(0, 364));
  const testedOn = addDays(addYears(expiresOn, -1), 1);
  return [
    {
      testedOn: testedOn < firstDue ? addDays(firstDue, -30) : testedOn,
      expiresOn,
    },
  ];
}

function fines(random: Random, today: IsoDate): Fine[] {
  if (!random.chance(SHARES.fined)) return [];
  return Array.from({ length: random.int(1, 3) }, () => ({
    issuedOn: addDays(today, -random.int(1, 700)),
    amountPence: random.int(6, 40) * 500,
    paid: random.chance(0.5),
  }));
}

function taxRecord(random: Random, today: IsoDate) {
  const roll = random.next();
  if (roll < SHARES.sorn) return { sorn: true, dueDate: null };
  if (roll < SHARES.sorn + SHARES.untaxed)
    return { sorn: false, dueDate: addDays(today, -random.int(1, 200)) };
  return { sorn: false, dueDate: addDays(today, random.int(0, 364)) };
}

function lastUpdated(random: Random, today: IsoDate): string {
  const day = addDays(today, -random.int(1, 365));
  return new Date(
    Date.parse(`${day}T00:00:00.000Z`) + random.int(0, 86_399) * 1000,
  ).toISOString();
}

/** The deterministic synthetic fleet: same options, same vehicles in the same order. */
export function* syntheticFleet(
  options: FleetOptions,
): Generator<VehicleFacts> {
  const random = seededRandom(options.seed);
  const used = new Set<string>();
  for (let serial = 1; used.size < options.size;) {
    const firstRegistered = firstRegistration(random, options.today);
    const registration = syntheticPlate(random, firstRegistered);
    if (
      used.has(registration) ||
      options.reserved.has(registration) ||
      !isValidRegistration(registration)
    )
      continue;
    used.add(registration);
    const make = random.pick(MAKES);
    yield {
      registration,
      vehicle: {
        make,
        model: random.pick(MODELS_BY_MAKE[make] ?? []),
        year: yearOf(firstRegistered),
        color: random.pick(COLOURS),
      },
      firstRegistered,
      lastUpdated: lastUpdated(random, options.today),
      policies: policyHistory(random, options.today, firstRegistered, serial++),
      motTests: motHistory(random, options.today, firstRegistered),
      tax: taxRecord(random, options.today),
      fines: fines(random, options.today),
    };
  }
}
