import type { PgPool } from "@vics/server-kit/postgres";
import type { Policy } from "@vics/shared";
import type { VehicleFacts } from "../../domain/vehicle-facts.ts";
import type { InsuranceFacts } from "../store.ts";

// One vehicle is one row (migrations.ts), so a lookup is one probe of the registration index
// and one heap row, whether it asks for one registration or a thousand. Each row comes back
// as ONE json array: json writes dates as ISO 8601 whatever the server's DateStyle, the
// composite arrays as objects, and pg then makes no Date objects (parsing a thousand
// timestamps took as long as the rest of the mapping). The instant is written in UTC, with
// no offset, and given its "Z" here.
// The insurance check's columns come first: its lookup reads only them (no MOT tests, tax or
// fines, which the server would build and send and pg parse for nothing), and the whole facts
// are those columns and the rest, read by the same mapping.
const INSURANCE_COLUMNS = `registration, make, model, year, color, first_registered,
  updated_at AT TIME ZONE 'UTC', policies`;
const INSURANCE_FACTS = `json_build_array(${INSURANCE_COLUMNS}) AS facts`;
const FACTS = `json_build_array(${INSURANCE_COLUMNS},
  tax_due, sorn, mot_tests, fines) AS facts`;

// Named, so each connection parses and plans them once.
const ONE_VEHICLE = {
  name: "vics_find_vehicle",
  text: `SELECT ${FACTS} FROM vehicles WHERE registration = $1`,
};
export const VEHICLES = {
  name: "vics_find_vehicles",
  text: `SELECT ${FACTS} FROM vehicles WHERE registration = ANY ($1::text[])`,
};

/**
 * As VICS knew them at $2 (decision 041): the current row if VICS learned those facts by then,
 * else the kept version current then; at most one of the two matches a registration.
 */
const knownAt = (facts: string, registrations: string) =>
  `SELECT ${facts} FROM vehicles
   WHERE registration ${registrations} AND updated_at <= $2::timestamptz
   UNION ALL
   SELECT ${facts} FROM vehicle_history
   WHERE registration ${registrations} AND updated_at <= $2::timestamptz
     AND superseded_at > $2::timestamptz`;
const ONE_KNOWN = {
  name: "vics_find_vehicle_known",
  text: knownAt(FACTS, "= $1"),
};
const MANY_KNOWN = {
  name: "vics_find_vehicles_known",
  text: knownAt(FACTS, "= ANY ($1::text[])"),
};
const INSURANCE = {
  name: "vics_find_insurance",
  text: `SELECT ${INSURANCE_FACTS} FROM vehicles WHERE registration = $1`,
};
const INSURANCE_KNOWN = {
  name: "vics_find_insurance_known",
  text: knownAt(INSURANCE_FACTS, "= $1"),
};
const INSURANCES = {
  name: "vics_find_insurances",
  text: `SELECT ${INSURANCE_FACTS} FROM vehicles WHERE registration = ANY ($1::text[])`,
};
const INSURANCES_KNOWN = {
  name: "vics_find_insurances_known",
  text: knownAt(INSURANCE_FACTS, "= ANY ($1::text[])"),
};

interface PolicyJson {
  number: string;
  insurer: string;
  type: string;
  valid_from: string;
  valid_to: string;
}

/** "2026-03-09T09:30:00" or "…09:30:00.123456" (UTC) as toISOString writes it. */
export function isoInstant(utc: string): string {
  const [whole, fraction = ""] = utc.split(".");
  return `${whole}.${fraction.padEnd(3, "0").slice(0, 3)}Z`;
}

type InsuranceJson = [
  registration: string,
  make: string,
  model: string,
  year: number,
  color: string,
  firstRegistered: string,
  updatedAtUtc: string,
  policies: PolicyJson[],
];

type FactsJson = [
  ...InsuranceJson,
  taxDue: string | null,
  sorn: boolean,
  motTests: { tested_on: string; expires_on: string }[],
  fines: { issued_on: string; amount_pence: number; paid: boolean }[],
];

const toPolicy = (policy: PolicyJson): Policy => ({
  number: policy.number,
  insurer: policy.insurer,
  validFrom: policy.valid_from,
  validTo: policy.valid_to,
  type: policy.type,
});

function toInsuranceFacts([
  registration,
  make,
  model,
  year,
  color,
  firstRegistered,
  updatedAt,
  policies,
]: readonly [...InsuranceJson, ...unknown[]]): InsuranceFacts {
  return {
    registration,
    vehicle: { make, model, year, color },
    firstRegistered,
    lastUpdated: isoInstant(updatedAt),
    policies: policies.map(toPolicy),
  };
}

/** The insurance columns read by toInsuranceFacts, then the rest. */
function toFacts(facts: FactsJson): VehicleFacts {
  const [, , , , , , , , taxDue, sorn, motTests, fines] = facts;
  return {
    ...toInsuranceFacts(facts),
    motTests: motTests.map((mot) => ({
      testedOn: mot.tested_on,
      expiresOn: mot.expires_on,
    })),
    tax: { sorn, dueDate: taxDue },
    fines: fines.map((fine) => ({
      issuedOn: fine.issued_on,
      amountPence: fine.amount_pence,
      paid: fine.paid,
    })),
  };
}

export function createVehicleQueries(pool: PgPool) {
  return {
    /** As findVehicle, with only what an insurance check answers from. */
    findInsurance: (registration: string, knownAt?: string) =>
      first(
        pool,
        registration,
        knownAt,
        [INSURANCE, INSURANCE_KNOWN],
        toInsuranceFacts,
      ),
    findVehicle: (registration: string, knownAt?: string) =>
      first<FactsJson, VehicleFacts>(
        pool,
        registration,
        knownAt,
        [ONE_VEHICLE, ONE_KNOWN],
        toFacts,
      ),
    findVehicles: (registrations: readonly string[], knownAt?: string) =>
      keyed<FactsJson, VehicleFacts>(
        pool,
        registrations,
        knownAt,
        [VEHICLES, MANY_KNOWN],
        toFacts,
      ),
    /** As findVehicles, with only what an insurance check answers from. */
    findInsurances: (registrations: readonly string[], knownAt?: string) =>
      keyed(
        pool,
        registrations,
        knownAt,
        [INSURANCES, INSURANCES_KNOWN],
        toInsuranceFacts,
      ),
  };
}

type Query = { name: string; text: string };

/** The vehicle's row now (`now`), or as known at `knownAt` (`then`), as facts. */
async function first<Json, Facts extends InsuranceFacts>(
  pool: PgPool,
  registration: string,
  knownAt: string | undefined,
  [now, then]: readonly [Query, Query],
  toFound: (facts: Json) => Facts,
): Promise<Facts | undefined> {
  const { rows } = await pool.query<{ facts: Json }>(
    knownAt === undefined
      ? { ...now, values: [registration] }
      : { ...then, values: [registration, knownAt] },
  );
  return rows[0] && toFound(rows[0].facts);
}

/** One query for every registration (`now`, or `then` at knownAt), keyed by registration. */
async function keyed<Json, Facts extends InsuranceFacts>(
  pool: PgPool,
  registrations: readonly string[],
  knownAt: string | undefined,
  [now, then]: readonly [Query, Query],
  toFound: (facts: Json) => Facts,
): Promise<Map<string, Facts>> {
  const found = new Map<string, Facts>();
  if (registrations.length === 0) return found;
  const { rows } = await pool.query<{ facts: Json }>(
    knownAt === undefined
      ? { ...now, values: [registrations] }
      : { ...then, values: [registrations, knownAt] },
  );
  for (const row of rows) {
    const facts = toFound(row.facts);
    found.set(facts.registration, facts);
  }
  return found;
}

/**
 * A vehicle's columns that vehicle_history keeps as its version, for `v` or the row itself:
 * beside the queries that read them, as SQLite's HISTORY_COLUMN_NAMES.
 */
export const versionColumns = (prefix = "") =>
  [
    "registration",
    "make",
    "model",
    "year",
    "color",
    "first_registered",
    "tax_due",
    "sorn",
    "updated_at",
    "policies",
    "mot_tests",
    "fines",
  ]
    .map((column) => prefix + column)
    .join(", ");
