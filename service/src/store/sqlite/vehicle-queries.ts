import type { DatabaseSync, SQLOutputValue } from "node:sqlite";
import type { Policy } from "@vics/shared";
import type { VehicleFacts } from "../store.ts";

type Row = Record<string, SQLOutputValue>;

// json_each lets one prepared statement take any number of registrations.
const VEHICLES_SQL = `
SELECT id, registration, make, model, year, color, first_registered, tax_due, sorn, updated_at
FROM vehicles WHERE registration IN (SELECT value FROM json_each(?))`;
const POLICIES_SQL = `
SELECT vehicle_id, number, insurer, type, valid_from, valid_to FROM policies
WHERE vehicle_id IN (SELECT value FROM json_each(?)) ORDER BY valid_from, id`;
const MOTS_SQL = `
SELECT vehicle_id, expires_on FROM mot_tests
WHERE vehicle_id IN (SELECT value FROM json_each(?)) ORDER BY tested_on, id`;
const FINES_SQL = `
SELECT vehicle_id, amount_pence, paid FROM fines
WHERE vehicle_id IN (SELECT value FROM json_each(?)) ORDER BY issued_on, id`;

function toPolicy(row: Row): Policy {
  return {
    number: String(row.number),
    insurer: String(row.insurer),
    validFrom: String(row.valid_from),
    validTo: String(row.valid_to),
    type: String(row.type),
  };
}

function toFacts(row: Row): VehicleFacts {
  return {
    registration: String(row.registration),
    vehicle: {
      make: String(row.make),
      model: String(row.model),
      year: Number(row.year),
      color: String(row.color),
    },
    firstRegistered: String(row.first_registered),
    lastUpdated: String(row.updated_at),
    policies: [],
    motExpiries: [],
    tax: {
      sorn: row.sorn === 1,
      dueDate: row.tax_due === null ? null : String(row.tax_due),
    },
    fines: [],
  };
}

export function createVehicleQueries(db: DatabaseSync) {
  const statements = {
    vehicles: db.prepare(VEHICLES_SQL),
    policies: db.prepare(POLICIES_SQL),
    mots: db.prepare(MOTS_SQL),
    fines: db.prepare(FINES_SQL),
  };
  return function findVehicles(
    registrations: readonly string[],
  ): Map<string, VehicleFacts> {
    const byId = new Map<number, VehicleFacts>();
    for (const row of statements.vehicles.all(JSON.stringify(registrations)))
      byId.set(Number(row.id), toFacts(row));
    const ids = JSON.stringify([...byId.keys()]);
    const factsOf = (row: Row) => byId.get(Number(row.vehicle_id));
    for (const row of statements.policies.all(ids))
      factsOf(row)?.policies.push(toPolicy(row));
    for (const row of statements.mots.all(ids))
      factsOf(row)?.motExpiries.push(String(row.expires_on));
    for (const row of statements.fines.all(ids))
      factsOf(row)?.fines.push({
        amountPence: Number(row.amount_pence),
        paid: row.paid === 1,
      });
    return new Map(
      [...byId.values()].map((facts) => [facts.registration, facts]),
    );
  };
}
