import type { PgClient, PgPool } from "@vics/shared/server/postgres";

/** meta "fleet" when the database holds the seeded synthetic fleet (as in the SQLite store). */
export const SYNTHETIC_FLEET = "synthetic";

export async function readMeta(
  db: PgPool | PgClient,
  key: string,
): Promise<string | undefined> {
  const { rows } = await db.query<{ value: string }>(
    "SELECT value FROM meta WHERE key = $1",
    [key],
  );
  return rows[0]?.value;
}

export async function writeMeta(
  db: PgPool | PgClient,
  key: string,
  value: string,
): Promise<void> {
  await db.query(
    "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    [key, value],
  );
}
