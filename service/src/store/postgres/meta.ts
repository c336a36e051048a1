import type { PgClient, PgPool } from "@vics/server-kit/postgres";
import { META_KEYS } from "../data-info.ts";

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

/**
 * What a write tells the answers about the data's span (decision 041), the same for an import
 * and a fetch: data is held since `since` if it was not before; the history reaches back to
 * `earliest` if that is before what it reached.
 */
export async function noteDataSpan(
  db: PgClient,
  { since, earliest }: { since?: string | null; earliest?: string | null },
): Promise<void> {
  if (earliest)
    await db.query(
      `INSERT INTO meta (key, value) VALUES ($1, $2)
       ON CONFLICT (key) DO UPDATE SET value = least(meta.value, excluded.value)`,
      [META_KEYS.historyFrom, earliest],
    );
  if (since)
    await db.query(
      "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING",
      [META_KEYS.since, since],
    );
}
