import type { DatabaseSync, SQLOutputValue } from "node:sqlite";
import { PlanSchema } from "@vics/shared";
import {
  type ApiKeyRecord,
  DuplicateKeyNameError,
  type NewApiKey,
} from "../store.ts";

const COLUMNS = "id, name, plan, created_at, revoked_at";

function toKey(row: Record<string, SQLOutputValue>): ApiKeyRecord {
  return {
    id: Number(row.id),
    name: String(row.name),
    plan: PlanSchema.parse(row.plan),
    createdAt: String(row.created_at),
    revokedAt: row.revoked_at === null ? null : String(row.revoked_at),
  };
}

function isUniqueViolation(error: unknown): boolean {
  return (
    error instanceof Error &&
    /UNIQUE constraint failed: api_keys\.name/.test(error.message)
  );
}

export function createKeyQueries(db: DatabaseSync) {
  const insert = db.prepare(
    `INSERT INTO api_keys (name, plan, key_hash, created_at) VALUES (?, ?, ?, ?) RETURNING ${COLUMNS}`,
  );
  const byHash = db.prepare(
    `SELECT ${COLUMNS} FROM api_keys WHERE key_hash = ?`,
  );
  const all = db.prepare(
    `SELECT ${COLUMNS} FROM api_keys ORDER BY created_at, id`,
  );
  const revoke = db.prepare(
    `UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE name = ? RETURNING ${COLUMNS}`,
  );
  return {
    createKey(key: NewApiKey): ApiKeyRecord {
      try {
        const row = insert.get(key.name, key.plan, key.keyHash, key.createdAt);
        if (!row) throw new Error("INSERT ... RETURNING gave no row");
        return toKey(row);
      } catch (error) {
        if (isUniqueViolation(error)) throw new DuplicateKeyNameError(key.name);
        throw error;
      }
    },
    findKeyByHash(keyHash: string): ApiKeyRecord | undefined {
      const row = byHash.get(keyHash);
      return row ? toKey(row) : undefined;
    },
    listKeys: (): ApiKeyRecord[] => all.all().map(toKey),
    revokeKey(name: string, revokedAt: string): ApiKeyRecord | undefined {
      const row = revoke.get(revokedAt, name);
      return row ? toKey(row) : undefined;
    },
  };
}
