// What the minimal service (minimal-service-server.ts) reads of the service's own SQLite file:
// the active keys once at start, the insurance data's freshness once at start, and per check
// ONE prepared statement with the vehicle and its policies, nothing of its MOT tests or fines:
// the service's own insurance lookup (vehicle-queries.ts), from the same covering indexes.
import { DatabaseSync } from "node:sqlite";
import type { Plan } from "@vics/shared";
import type { InsuranceFacts } from "../../service/src/store/store.ts";
import { createVehicleQueries } from "../../service/src/store/sqlite/vehicle-queries.ts";

export interface MinimalStore {
  /** Key hash (SHA-256, hex) to plan, of the keys not revoked when the floor started. */
  keys: Map<string, Plan>;
  /** The insurance data's instant (meta as_of_insurance), when the database has one. */
  insuranceAsOf: string | undefined;
  findInsurance(registration: string): InsuranceFacts | undefined;
}

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
  const { findInsurance } = createVehicleQueries(db);
  return {
    keys,
    insuranceAsOf: asOf === undefined ? undefined : String(asOf.value),
    findInsurance,
  };
}
