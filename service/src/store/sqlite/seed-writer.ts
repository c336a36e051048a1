import type { DatabaseSync } from "node:sqlite";
import type { VehicleFacts } from "../../domain/vehicle-facts.ts";

/** Inserts vehicles with prepared statements; the caller owns the transaction. */
export function writeVehicles(
  db: DatabaseSync,
  vehicles: Iterable<VehicleFacts>,
): number {
  const insert = {
    vehicle: db.prepare(
      `INSERT INTO vehicles (registration, make, model, year, color, first_registered, tax_due, sorn, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    policy: db.prepare(
      "INSERT INTO policies (vehicle_id, number, insurer, type, valid_from, valid_to) VALUES (?, ?, ?, ?, ?, ?)",
    ),
    mot: db.prepare(
      "INSERT INTO mot_tests (vehicle_id, tested_on, expires_on) VALUES (?, ?, ?)",
    ),
    fine: db.prepare(
      "INSERT INTO fines (vehicle_id, issued_on, amount_pence, paid) VALUES (?, ?, ?, ?)",
    ),
  };
  let count = 0;
  for (const seed of vehicles) {
    const { make, model, year, color } = seed.vehicle;
    const { lastInsertRowid: vehicleId } = insert.vehicle.run(
      seed.registration,
      make,
      model,
      year,
      color,
      seed.firstRegistered,
      seed.tax.dueDate,
      seed.tax.sorn ? 1 : 0,
      seed.lastUpdated,
    );
    for (const p of seed.policies)
      insert.policy.run(
        vehicleId,
        p.number,
        p.insurer,
        p.type,
        p.validFrom,
        p.validTo,
      );
    for (const mot of seed.motTests)
      insert.mot.run(vehicleId, mot.testedOn, mot.expiresOn);
    for (const fine of seed.fines)
      insert.fine.run(
        vehicleId,
        fine.issuedOn,
        fine.amountPence,
        fine.paid ? 1 : 0,
      );
    count++;
  }
  return count;
}
