import { createHash, randomBytes } from "node:crypto";
import type { Plan } from "@vics/shared";
import type { ApiKeyRecord, KeyStore } from "../store/store.ts";

const KEY_PREFIX = "vics_";
const KEY_BYTES = 32;

/** 256 random bits; the prefix makes a leaked key easy to recognise in a scan. */
export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(KEY_BYTES).toString("base64url");
}

/** A fast hash is enough: keys carry 256 bits of entropy, so they cannot be brute-forced. */
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

export interface IssuedKey {
  /** The plain key: shown once, never stored. */
  key: string;
  record: ApiKeyRecord;
}

export async function issueApiKey(
  store: KeyStore,
  plan: Plan,
  name: string,
  now: Date,
): Promise<IssuedKey> {
  const key = generateApiKey();
  const record = await store.createKey({
    name,
    plan,
    keyHash: hashApiKey(key),
    createdAt: now.toISOString(),
  });
  return { key, record };
}

/** The active key behind a presented value, or undefined when unknown or revoked. */
export async function authenticateApiKey(
  store: KeyStore,
  presented: string | undefined,
): Promise<ApiKeyRecord | undefined> {
  if (!presented) return undefined;
  const record = await store.findKeyByHash(hashApiKey(presented));
  return record && record.revokedAt === null ? record : undefined;
}
