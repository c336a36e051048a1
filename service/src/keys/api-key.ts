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

/**
 * The hashes of presented keys that the store knew, so a caller's every request does not hash
 * its key again (a SHA-256 per request). Only keys found are kept, so a guesser cannot fill it;
 * whether a key is still active is asked of the store every time, as before.
 */
const KNOWN_KEYS_KEPT = 1_000;
const knownKeyHashes = new Map<string, string>();

/** The active key behind a presented value, or undefined when unknown or revoked. */
export async function authenticateApiKey(
  store: KeyStore,
  presented: string | undefined,
): Promise<ApiKeyRecord | undefined> {
  if (!presented) return undefined;
  const known = knownKeyHashes.get(presented);
  const keyHash = known ?? hashApiKey(presented);
  const record = await store.findKeyByHash(keyHash);
  if (record && known === undefined) {
    if (knownKeyHashes.size >= KNOWN_KEYS_KEPT)
      knownKeyHashes.delete(knownKeyHashes.keys().next().value as string);
    knownKeyHashes.set(presented, keyHash);
  }
  return record && record.revokedAt === null ? record : undefined;
}
