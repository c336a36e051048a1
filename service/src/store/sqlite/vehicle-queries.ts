import type { DatabaseSync, SQLOutputValue } from "node:sqlite";
import type { Policy } from "@vics/shared";
import type { VehicleFacts } from "../store.ts";

type Row = Record<string, SQLOutputValue>;

// One statement per lookup: each vehicle row carries its policies, MOT expiries and fines as
// JSON arrays, in their order (docs/performance.md: four queries per check cost 40% of the
// service's time). The single check matches its registration directly; json_each lets one
// prepared statement take any number of registrations (the bulk checks, the look-alikes).
const VEHICLE_COLUMNS = `
SELECT v.registration, v.make, v.model, v.year, v.color, v.first_registered, v.tax_due,
  v.sorn, v.updated_at,
  (SELECT json_group_array(json_array(number, insurer, type, valid_from, valid_to))
   FROM (SELECT number, insurer, type, valid_from, valid_to FROM policies
         WHERE vehicle_id = v.id ORDER BY valid_from, id)) AS policies,
  (SELECT json_group_array(expires_on)
   FROM (SELECT expires_on FROM mot_tests WHERE vehicle_id = v.id ORDER BY tested_on, id))
   AS mots,
  (SELECT json_group_array(json_array(amount_pence, paid))
   FROM (SELECT amount_pence, paid FROM fines WHERE vehicle_id = v.id ORDER BY issued_on, id))
   AS fines
FROM vehicles v`;
const ONE_VEHICLE_SQL = `${VEHICLE_COLUMNS} WHERE v.registration = ?`;
const VEHICLES_SQL = `${VEHICLE_COLUMNS}
WHERE v.registration IN (SELECT value FROM json_each(?))`;

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
    policies: (JSON.parse(String(row.policies)) as PolicyCells[]).map(toPolicy),
    motExpiries: JSON.parse(String(row.mots)) as string[],
    tax: {
      sorn: row.sorn === 1,
      dueDate: row.tax_due === null ? null : String(row.tax_due),
    },
    fines: (JSON.parse(String(row.fines)) as [number, number][]).map(
      ([amountPence, paid]) => ({ amountPence, paid: paid === 1 }),
    ),
  };
}

export function createVehicleQueries(db: DatabaseSync) {
  const one = db.prepare(ONE_VEHICLE_SQL);
  const many = db.prepare(VEHICLES_SQL);
  return {
    findVehicle(registration: string): VehicleFacts | undefined {
      const row = one.get(registration);
      return row && toFacts(row);
    },
    findVehicles(registrations: readonly string[]): Map<string, VehicleFacts> {
      const found = new Map<string, VehicleFacts>();
      for (const row of many.all(JSON.stringify(registrations))) {
        const facts = toFacts(row);
        found.set(facts.registration, facts);
      }
      return found;
    },
  };
}
