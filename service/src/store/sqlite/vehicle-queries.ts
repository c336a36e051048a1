import type { DatabaseSync, SQLOutputValue, StatementSync } from "node:sqlite";
import type { Policy } from "@vics/shared";
import type { VehicleFacts } from "../../domain/vehicle-facts.ts";
import type { InsuranceFacts } from "../store.ts";

// Rows come back as arrays (setReturnArrays), in VEHICLE_COLUMNS' order: a thousand objects
// with twelve keys each were a tenth of a bulk lookup.
type Row = SQLOutputValue[];

// One statement per lookup: each vehicle row carries its policies, MOT expiries and fines as
// JSON arrays, in their order (four queries per check were 40% of the
// service's time). The single check matches its registration directly; json_each lets one
// prepared statement take any number of registrations (the bulk checks, the look-alikes).
// Every table is read from a covering index (schema.ts); SQLite would pick registration's
// UNIQUE index for vehicles and read each row from the table, hence INDEXED BY.
// The insurance check's columns come first: its lookup reads only them (not the MOT tests' and
// fines' subqueries, two index reads and two JSON arrays a check never shows), and the whole
// facts are those columns and the rest, read by the same mapping.
const INSURANCE_LIST = `v.registration, v.make, v.model, v.year, v.color, v.first_registered,
  v.updated_at,
  (SELECT json_group_array(json_array(number, insurer, type, valid_from, valid_to))
   FROM (SELECT number, insurer, type, valid_from, valid_to FROM policies
         WHERE vehicle_id = v.id ORDER BY valid_from, id)) AS policies`;
/** The lookup's columns for vehicle `v`; vehicle_history keeps a version in the same form. */
export const FACT_LIST = `${INSURANCE_LIST}, v.tax_due, v.sorn,
  (SELECT json_group_array(json_array(tested_on, expires_on))
   FROM (SELECT tested_on, expires_on FROM mot_tests WHERE vehicle_id = v.id
         ORDER BY tested_on, id)) AS mots,
  (SELECT json_group_array(json_array(amount_pence, paid, issued_on))
   FROM (SELECT amount_pence, paid, issued_on FROM fines WHERE vehicle_id = v.id
         ORDER BY issued_on, id)) AS fines`;
/** vehicle_history's columns, in FACT_LIST's order: the first eight are INSURANCE_LIST's. */
const HISTORY = [
  "registration",
  "make",
  "model",
  "year",
  "color",
  "first_registered",
  "updated_at",
  "policies",
  "tax_due",
  "sorn",
  "mots",
  "fines",
];
const INSURANCE_COLUMNS = 8;
/** For import-writer.ts, which keeps each replaced version in FACT_LIST's order. */
export const HISTORY_COLUMN_NAMES = HISTORY.join(", ");
const history = (count: number) =>
  HISTORY.slice(0, count)
    .map((column) => `h.${column}`)
    .join(", ");
const vehicles = (list: string) =>
  `SELECT ${list} FROM vehicles v INDEXED BY vehicles_by_registration`;
const ONE_VEHICLE_SQL = `${vehicles(FACT_LIST)} WHERE v.registration = ?`;
const VEHICLES_SQL = `${vehicles(FACT_LIST)}
WHERE v.registration IN (SELECT value FROM json_each(?))`;
const INSURANCE_SQL = `${vehicles(INSURANCE_LIST)} WHERE v.registration = ?`;
const INSURANCES_SQL = `${vehicles(INSURANCE_LIST)}
WHERE v.registration IN (SELECT value FROM json_each(?))`;

/**
 * A vehicle as VICS knew it at ?2 (decision 041): its current row if VICS learned those facts
 * by then, else the kept version that was current then. At most one of the two matches.
 * `columns` of vehicle_history: the first `list`'s worth, in its order.
 */
const knownAt = (
  list: string,
  columns: string,
  registrations: string,
) => `${vehicles(list)}
WHERE v.registration ${registrations} AND v.updated_at <= ?2
UNION ALL
SELECT ${columns} FROM vehicle_history h
WHERE h.registration ${registrations} AND h.updated_at <= ?2 AND h.superseded_at > ?2`;
const HISTORY_FACTS = history(HISTORY.length);
const HISTORY_INSURANCE = history(INSURANCE_COLUMNS);
const ONE_KNOWN_SQL = knownAt(FACT_LIST, HISTORY_FACTS, "= ?1");
const MANY_KNOWN_SQL = knownAt(
  FACT_LIST,
  HISTORY_FACTS,
  "IN (SELECT value FROM json_each(?1))",
);
const INSURANCE_KNOWN_SQL = knownAt(INSURANCE_LIST, HISTORY_INSURANCE, "= ?1");
const INSURANCES_KNOWN_SQL = knownAt(
  INSURANCE_LIST,
  HISTORY_INSURANCE,
  "IN (SELECT value FROM json_each(?1))",
);

type PolicyCells = [string, string, string, string, string];

function toPolicy([
  number,
  insurer,
  type,
  validFrom,
  validTo,
]: PolicyCells): Policy {
  return { number, insurer, validFrom, validTo, type };
}

/** A lookup row, or a vehicle_history row read through the same columns, as facts. */
export function toFacts(row: Row): VehicleFacts {
  const [, , , , , , , , taxDue, sorn, mots, fines] = row;
  return {
    ...toInsuranceFacts(row),
    motTests: (JSON.parse(String(mots)) as [string, string][]).map(
      ([testedOn, expiresOn]) => ({ testedOn, expiresOn }),
    ),
    tax: {
      sorn: sorn === 1,
      dueDate: taxDue === null ? null : String(taxDue),
    },
    fines: (JSON.parse(String(fines)) as [number, number, string][]).map(
      ([amountPence, paid, issuedOn]) => ({
        issuedOn,
        amountPence,
        paid: paid === 1,
      }),
    ),
  };
}

/** An insurance lookup's row (INSURANCE_LIST, the first columns of any lookup's) as facts. */
function toInsuranceFacts([
  registration,
  make,
  model,
  year,
  color,
  firstRegistered,
  updatedAt,
  policies,
]: Row): InsuranceFacts {
  return {
    registration: String(registration),
    vehicle: {
      make: String(make),
      model: String(model),
      year: Number(year),
      color: String(color),
    },
    firstRegistered: String(firstRegistered),
    lastUpdated: String(updatedAt),
    policies: (JSON.parse(String(policies)) as PolicyCells[]).map(toPolicy),
  };
}

export function createVehicleQueries(db: DatabaseSync) {
  const one = db.prepare(ONE_VEHICLE_SQL);
  const many = db.prepare(VEHICLES_SQL);
  const oneKnown = db.prepare(ONE_KNOWN_SQL);
  const manyKnown = db.prepare(MANY_KNOWN_SQL);
  const insurance = db.prepare(INSURANCE_SQL);
  const insuranceKnown = db.prepare(INSURANCE_KNOWN_SQL);
  const insurances = db.prepare(INSURANCES_SQL);
  const insurancesKnown = db.prepare(INSURANCES_KNOWN_SQL);
  for (const statement of [
    one,
    many,
    oneKnown,
    manyKnown,
    insurance,
    insuranceKnown,
    insurances,
    insurancesKnown,
  ])
    statement.setReturnArrays(true);
  return {
    /** As findVehicle, with only what an insurance check answers from. */
    findInsurance: (registration: string, knownAt?: string) =>
      first(registration, knownAt, insurance, insuranceKnown, toInsuranceFacts),
    /** `knownAt`: as VICS knew it then (an ISO instant); else as it knows it now. */
    findVehicle: (registration: string, knownAt?: string) =>
      first(registration, knownAt, one, oneKnown, toFacts),
    findVehicles: (registrations: readonly string[], knownAt?: string) =>
      keyed(registrations, knownAt, many, manyKnown, toFacts),
    /** As findVehicles, with only what an insurance check answers from. */
    findInsurances: (registrations: readonly string[], knownAt?: string) =>
      keyed(
        registrations,
        knownAt,
        insurances,
        insurancesKnown,
        toInsuranceFacts,
      ),
  };
}

/** The vehicle's row now, or as known at `knownAt` (`then`), as facts. */
function first<Facts extends InsuranceFacts>(
  registration: string,
  knownAt: string | undefined,
  now: StatementSync,
  then: StatementSync,
  toFound: (row: Row) => Facts,
): Facts | undefined {
  // @types/node types every row as an object, whatever setReturnArrays says.
  const row = (knownAt === undefined
    ? now.get(registration)
    : then.get(registration, knownAt)) as unknown as Row | undefined;
  return row && toFound(row);
}

/** One statement for every registration, its rows keyed by registration. */
function keyed<Facts extends InsuranceFacts>(
  registrations: readonly string[],
  knownAt: string | undefined,
  now: StatementSync,
  then: StatementSync,
  toFound: (row: Row) => Facts,
): Map<string, Facts> {
  const found = new Map<string, Facts>();
  const list = JSON.stringify(registrations);
  const rows = (knownAt === undefined
    ? now.all(list)
    : then.all(list, knownAt)) as unknown as Row[];
  for (const row of rows) {
    const facts = toFound(row);
    found.set(facts.registration, facts);
  }
  return found;
}
