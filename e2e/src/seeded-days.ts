// The reference vehicles' dates are set relative to the day the stack's database was seeded
// (LP08SED's cover ended 20 days before it). A run that crosses midnight in the UK sees that
// day move away: "ended 21 days ago" is then the right answer. The journeys ask this for the
// number to expect, instead of assuming the seeding was today.
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { daysBetween, ukDate } from "@vics/shared";
import { stackEnv } from "./stack-env.ts";

/** Whole UK days from the stack's seeding to today. */
export async function daysSinceSeeding(): Promise<number> {
  const { dataDir } = await stackEnv();
  const db = new DatabaseSync(join(dataDir, "vics.sqlite"), { readOnly: true });
  try {
    const row = db
      .prepare("SELECT value FROM meta WHERE key = 'seeded_on'")
      .get();
    if (!row) throw new Error("the stack's database records no seeding day");
    return daysBetween(String(row.value), ukDate(new Date()));
  } finally {
    db.close();
  }
}

/** LP08SED's cover ended 20 days before the seeding: how many days ago that is now. */
export async function lp08sedLapsedDaysAgo(): Promise<number> {
  return 20 + (await daysSinceSeeding());
}
