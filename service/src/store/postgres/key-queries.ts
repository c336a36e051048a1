import pg from "pg";
import { PlanSchema } from "@vics/shared";
import type { PgPool } from "@vics/server-kit/postgres";
import {
  type ApiKeyRecord,
  DuplicateKeyNameError,
  type NewApiKey,
} from "../store.ts";

const COLUMNS = "id, name, plan, created_at, revoked_at";

interface KeyRow {
  id: number;
  name: string;
  plan: string;
  created_at: Date;
  revoked_at: Date | null;
}

// timestamptz comes back as a Date (pg's parser); the store's times are ISO strings in UTC,
// as they went in.
function toKey(row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    name: row.name,
    plan: PlanSchema.parse(row.plan),
    createdAt: row.created_at.toISOString(),
    revokedAt: row.revoked_at === null ? null : row.revoked_at.toISOString(),
  };
}

const isUniqueViolation = (error: unknown) =>
  error instanceof pg.DatabaseError &&
  error.code === "23505" &&
  error.constraint === "api_keys_name_key";

export function createKeyQueries(pool: PgPool) {
  return {
    async createKey(key: NewApiKey): Promise<ApiKeyRecord> {
      try {
        const { rows } = await pool.query<KeyRow>({
          name: "vics_create_key",
          text: `INSERT INTO api_keys (name, plan, key_hash, created_at) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
          values: [key.name, key.plan, key.keyHash, key.createdAt],
        });
        return toKey(rows[0]!);
      } catch (error) {
        if (isUniqueViolation(error)) throw new DuplicateKeyNameError(key.name);
        throw error;
      }
    },
    async findKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
      const { rows } = await pool.query<KeyRow>({
        name: "vics_key_by_hash",
        text: `SELECT ${COLUMNS} FROM api_keys WHERE key_hash = $1`,
        values: [keyHash],
      });
      return rows[0] && toKey(rows[0]);
    },
    async listKeys(): Promise<ApiKeyRecord[]> {
      const { rows } = await pool.query<KeyRow>(
        `SELECT ${COLUMNS} FROM api_keys ORDER BY created_at, id`,
      );
      return rows.map(toKey);
    },
    /** coalesce: revoking twice keeps the first time. */
    async revokeKey(
      name: string,
      revokedAt: string,
    ): Promise<ApiKeyRecord | undefined> {
      const { rows } = await pool.query<KeyRow>(
        `UPDATE api_keys SET revoked_at = coalesce(revoked_at, $1) WHERE name = $2 RETURNING ${COLUMNS}`,
        [revokedAt, name],
      );
      return rows[0] && toKey(rows[0]);
    },
  };
}
