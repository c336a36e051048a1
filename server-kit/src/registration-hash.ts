// A registration is personal data: logs carry a short keyed hash of it, never the plate. Keyed
// (HMAC), so nobody without the key can hash all the plates there are and look one up; short,
// since it only has to tell one vehicle's lines from another's. Node only (node:crypto), so it
// sits apart from the package's browser-safe index.
import { createHmac, createSecretKey, randomBytes } from "node:crypto";
import { normaliseRegistration } from "@vics/shared";
import { cachedHasher, type RegistrationHasher } from "./cached-hasher.ts";

/** Hex characters kept: 48 bits, plenty to tell apart the vehicles of one log. */
const HASH_LENGTH = 12;

export type { RegistrationHasher };

/**
 * A hasher under `key`; with no key, a random one for this process (its hashes then match
 * only within the process's own lines). `ab12 cde` and `AB12CDE` hash alike. The hashes of the
 * last 10,000 plates are remembered (cached-hasher.ts): a fleet's vehicles are checked again
 * and again, and an HMAC (a new context each time) was a twentieth of the service's CPU per
 * check.
 */
export function registrationHasher(key?: string): RegistrationHasher {
  // A KeyObject made once: a Buffer would be imported again on every hash (a profile showed it).
  const secret = createSecretKey(
    key ? Buffer.from(key, "utf8") : randomBytes(32),
  );
  return cachedHasher((registration) =>
    createHmac("sha256", secret)
      .update(normaliseRegistration(registration))
      .digest("hex")
      .slice(0, HASH_LENGTH),
  );
}
