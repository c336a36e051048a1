// What the minimal service (minimal-service-server.ts) reads of the service's own SQLite file:
// the active keys once at start, the insurance data's freshness once at start, and per check
// ONE prepared statement with the vehicle and its policies, nothing of its MOT tests or fines.
import { DatabaseSync, type SQLOutputValue } from "node:sqlite";
import type { Plan, Policy, Vehicle } from "@vics/shared";

export interface InsuranceRow {
  registration: string;
  vehicle: Vehicle;
  firstRegistered: string;
  lastUpdated: string;
  policies: Policy[];
}

export interface MinimalStore {
  /** Key hash (SHA-256, hex) to plan, of the keys not revoked when the floor started. */
  keys: Map<string, Plan>;
  /** The insurance data's instant (meta as_of_insurance), when the database has one. */
  insuranceAsOf: string | undefined;
  findInsurance(registration: string): InsuranceRow | undefined;
}

// The service's insurance lookup (vehicle-queries.ts), from the same covering indexes.
const INSURANCE_SQL = `SELECT v.registration, v.make, v.model, v.year, v.color,
  v.first_registered, v.updated_at,
  (SELECT json_group_array(json_array(number, insurer, type, valid_from, valid_to))
   FROM (SELECT number, insurer, type, valid_from, valid_to FROM policies
         WHERE vehicle_id = v.id ORDER BY valid_from, id)) AS policies
FROM vehicles v INDEXED BY vehicles_by_registration WHERE v.registration = ?`;

type PolicyCells = [string, string, string, string, string];

export function openMinimalStore(path: string): MinimalStore {
  const db = new DatabaseSync(path, { readOnly: true });
  // The service's read settings (service/src/store/sqlite/database.ts): a memory map of up
  // to 1 GiB and a 64 MiB page cache. Its WAL and synchronous settings are a writer's.
  db.exec("PRAGMA mmap_size = 1073741824; PRAGMA cache_size = -65536;");
  const keys = new Map<string, Plan>();
  for (const row of db
    .prepare("SELECT key_hash, plan FROM api_keys WHERE revoked_at IS NULL")
    .all())
    keys.set(String(row.key_hash), row.plan as Plan);
  const asOf = db
    .prepare("SELECT value FROM meta WHERE key = 'as_of_insurance'")
    .get();
  const insurance = db.prepare(INSURANCE_SQL);
  insurance.setReturnArrays(true);
  return {
    keys,
    insuranceAsOf: asOf === undefined ? undefined : String(asOf.value),
    findInsurance(registration) {
      // @types/node types every row as an object, whatever setReturnArrays says.
      const row = insurance.get(registration) as unknown as
        SQLOutputValue[] | undefined;
      if (!row) return undefined;
      const [reg, make, model, year, color, first, updated, policies] = row;
      return {
        registration: String(reg),
        vehicle: {
          make: String(make),
          model: String(model),
          year: Number(year),
          color: String(color),
        },
        firstRegistered: String(first),
        lastUpdated: String(updated),
        policies: (JSON.parse(String(policies)) as PolicyCells[]).map(
          ([number, insurer, type, validFrom, validTo]) => ({
            number,
            insurer,
            validFrom,
            validTo,
            type,
          }),
        ),
      };
    },
  };
}
