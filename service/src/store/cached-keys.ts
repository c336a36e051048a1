import type { ApiKeyRecord, Store } from "./store.ts";

/** How long a key found in the database is trusted without asking again. */
export const KEY_CACHE_TTL_MS = 2_000;
const MAX_ENTRIES = 10_000;

/**
 * The store, with found keys remembered for `ttlMs`: a key is looked up once per two seconds
 * instead of on every request. A revocation, made by `scripts/keys` in another
 * process (the service itself never revokes), takes effect within `ttlMs`. Unknown keys are
 * never remembered, so a key created a moment ago works on its first request, and a guesser
 * cannot fill the cache (it holds at most MAX_ENTRIES, oldest out first).
 */
export function withCachedKeys(
  store: Store,
  options: { ttlMs?: number; now?: () => number } = {},
): Store {
  const ttlMs = options.ttlMs ?? KEY_CACHE_TTL_MS;
  const now = options.now ?? Date.now;
  const found = new Map<string, { record: ApiKeyRecord; until: number }>();
  return {
    ...store,
    async findKeyByHash(keyHash) {
      const cached = found.get(keyHash);
      if (cached && cached.until > now()) return cached.record;
      found.delete(keyHash);
      const record = await store.findKeyByHash(keyHash);
      if (record) {
        if (found.size >= MAX_ENTRIES) {
          const oldest = found.keys().next();
          if (!oldest.done) found.delete(oldest.value);
        }
        found.set(keyHash, { record, until: now() + ttlMs });
      }
      return record;
    },
  };
}
