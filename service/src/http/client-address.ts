import type { Context } from "hono";
import { forwardedAddress } from "@vics/server-kit/client-address";

/**
 * The caller's address for the limits without a valid key: the socket's peer, or, when that
 * peer is a load balancer named in TRUSTED_PROXIES, the rightmost X-Forwarded-For address it
 * does not trust (the proxy's rule, server-kit/src/client-address.ts). With TRUSTED_PROXIES
 * empty, the default, X-Forwarded-For is never read: a caller cannot pick its own address.
 */
export function clientAddress(
  trusted: readonly string[],
): (c: Context) => string {
  const resolve = forwardedAddress(trusted);
  return (c) => resolve(c) ?? "unknown";
}
