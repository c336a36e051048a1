// Registrations of the seeded synthetic fleet, read from a stack's database, so load is spread
// over real vehicles instead of one hot key.
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";

export function fleetRegistrations(dataDir: string, count: number): string[] {
  const db = new DatabaseSync(join(dataDir, "vics.sqlite"), { readOnly: true });
  try {
    return db
      .prepare("SELECT registration FROM vehicles ORDER BY random() LIMIT ?")
      .all(count)
      .map((row) => String(row.registration));
  } finally {
    db.close();
  }
}
