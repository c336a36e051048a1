// The Idempotency-Key of a run's bulk request (decision 028): derived from the run and the
// chunk's registrations only, so the chunk sent again after a reload carries the same key and
// the proxy answers it from memory instead of asking the service (and its quota) twice.
import type { FleetClient } from "@vics/fleet";

const FNV_PRIME = 0x100000001b3n;
const MASK = 0xffffffffffffffffn;

// 64-bit FNV-1a, twice with different starts: 32 hex characters. Not a secret and not a
// safeguard: the proxy also compares the body, so two chunks sharing a key still get their own
// answers.
function fnv1a(text: string, start: bigint): string {
  let hash = start;
  for (let i = 0; i < text.length; i++) {
    hash ^= BigInt(text.charCodeAt(i));
    hash = (hash * FNV_PRIME) & MASK;
  }
  return hash.toString(16).padStart(16, "0");
}

export function chunkKey(
  runId: string,
  registrations: readonly string[],
): string {
  const text = `${runId}\n${registrations.join(",")}`;
  return fnv1a(text, 0xcbf29ce484222325n) + fnv1a(text, 0x84222325cbf29ce4n);
}

/** The client a run's engine uses: each bulk request carries its chunk's key. */
export function keyedByRun(client: FleetClient, runId: string): FleetClient {
  return {
    bulkInsurance: (registrations, signal) =>
      client.bulkInsurance(
        registrations,
        signal,
        chunkKey(runId, registrations),
      ),
    bulkCompliance: (registrations, signal) =>
      client.bulkCompliance(
        registrations,
        signal,
        chunkKey(runId, registrations),
      ),
    compliance: (registration, signal) =>
      client.compliance(registration, signal),
  };
}
