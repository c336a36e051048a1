// The DNS lookup a webhook's connection uses: it answers with the addresses checkWebhookUrl
// already checked, whatever the name, and never asks DNS again. Asking again would let a name
// answer a public address for the check and a private one a moment later for the connection
// (DNS rebinding). The URL keeps its host name, so TLS still checks the certificate for it.
import type { LookupAddress, LookupOptions } from "node:dns";
import type { LookupFunction } from "node:net";

/** A `lookup` for `net.connect`/`tls.connect` that only ever gives `addresses`. */
export function pinnedLookup(
  addresses: readonly LookupAddress[],
): LookupFunction {
  return (hostname, options, callback) => {
    const family = wantedFamily(options);
    const usable = addresses.filter(
      (each) => family === 0 || each.family === family,
    );
    const first = usable[0];
    if (first === undefined) {
      const error: NodeJS.ErrnoException = new Error(
        `${hostname} has no checked IPv${family} address`,
      );
      error.code = "ENOTFOUND";
      callback(error, "");
    } else if (options.all === true) {
      // Node asks for all addresses when it tries IPv6 and IPv4 side by side (autoSelectFamily).
      callback(null, usable);
    } else {
      callback(null, first.address, first.family);
    }
  };
}

function wantedFamily(options: LookupOptions): 0 | 4 | 6 {
  const family = options.family;
  if (family === 4 || family === "IPv4") return 4;
  if (family === 6 || family === "IPv6") return 6;
  return 0;
}
