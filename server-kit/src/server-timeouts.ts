// How long the service's and the proxy's HTTP servers wait for a client. Node's defaults let
// a client trickle a request for 5 minutes (requestTimeout 300 s) and check only every 30 s,
// so a few slow clients could hold connections for minutes. Node only, like ./registration-hash.
import type { ServerOptions } from "node:http";

/** The whole request, body included: a 64 KiB bulk body needs 30 s only below 20 kbit/s. */
const REQUEST_TIMEOUT_MS = 30_000;
/** The request line and headers alone: a few hundred bytes. */
const HEADERS_TIMEOUT_MS = 10_000;

/**
 * Node's server options for these limits. Past them Node answers 408 and closes the
 * connection; the app's handler sees its body end early. Tests pass a shorter limit.
 */
export function serverTimeouts(
  requestTimeoutMs = REQUEST_TIMEOUT_MS,
): Pick<
  ServerOptions,
  "requestTimeout" | "headersTimeout" | "connectionsCheckingInterval"
> {
  return {
    requestTimeout: requestTimeoutMs,
    headersTimeout: Math.min(HEADERS_TIMEOUT_MS, requestTimeoutMs),
    // How often Node looks for expired requests: at most a second late.
    connectionsCheckingInterval: Math.min(1_000, requestTimeoutMs / 4),
  };
}
