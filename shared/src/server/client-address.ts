/**
 * `@vics/shared/server/client-address`: who sent a request, past the load balancers an app
 * was told to trust (TRUSTED_PROXIES). The service's per-address limit and the proxy's sign-in
 * throttle and audit both count by it.
 */
import type { IncomingMessage } from "node:http";
import type { Context } from "hono";
import proxyaddr from "proxy-addr";

/** The TRUSTED_PROXIES setting as a list: comma-separated, blanks ignored. */
export function parseTrustedProxies(value: string): string[] {
  return value
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
}

/** Whether every entry is an address or a CIDR range proxy-addr understands. */
export function isTrustList(list: readonly string[]): boolean {
  try {
    proxyaddr.compile([...list]);
    return true;
  } catch {
    return false;
  }
}

export const TRUSTED_PROXIES_ERROR =
  "must be a comma-separated list of addresses or CIDR ranges, e.g. 10.0.0.0/8,192.0.2.7";

/**
 * The client's address: the socket's peer, or, when that peer is one of the load balancers
 * in `trusted`, the nearest address in X-Forwarded-For that is not one of them (proxy-addr, as
 * Express does it: the rightmost untrusted hop). X-Forwarded-For from anyone else is ignored,
 * so a client cannot choose the address it is counted against. `trusted`: addresses or CIDR
 * ranges; empty trusts no one. Null when there is no socket (a test calling app.request()).
 */
export function forwardedAddress(
  trusted: readonly string[],
): (c: Context) => string | null {
  const trust = proxyaddr.compile([...trusted]);
  return (c) => {
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)
      ?.incoming;
    return incoming?.socket?.remoteAddress ? proxyaddr(incoming, trust) : null;
  };
}
