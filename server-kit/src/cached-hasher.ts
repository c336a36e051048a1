/** A registration as the logs may show it (registration-hash.ts). */
export type RegistrationHasher = (registration: string) => string;

/** Plates remembered: a day's busy desk, or the fleet a load run draws from. */
export const REMEMBERED_HASHES = 10_000;
/** A registration is at most a few characters; anything longer is hashed but not kept. */
const LONGEST_KEPT = 16;

/**
 * The same hasher with the hashes of the last `size` registrations remembered: the access logs
 * of the service and the proxy hash the plate of every check, and the same plates come back. An HMAC per log line was a
 * profile's visible share; a Map lookup is not. The oldest is forgotten first; the hashes are
 * the hasher's own, so a log line says the same with or without the cache.
 */
export function cachedHasher(
  hash: RegistrationHasher,
  size = REMEMBERED_HASHES,
): RegistrationHasher {
  const kept = new Map<string, string>();
  return (registration) => {
    const known = kept.get(registration);
    if (known !== undefined) return known;
    const hashed = hash(registration);
    if (registration.length <= LONGEST_KEPT) {
      if (kept.size >= size) kept.delete(kept.keys().next().value!);
      kept.set(registration, hashed);
    }
    return hashed;
  };
}
