/**
 * `@vics/server-kit/client-address`: who sent a request, past the load balancers an app
 * was told to trust (TRUSTED_PROXIES). The service's per-address limit and the proxy's sign-in
 * throttle and audit both count by it.
 */
import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";
import type { Context } from "hono";
import proxyaddr from "proxy-addr";
import { malformedRequest } from "./problem-error.ts";

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
 * Throws a 400 problem when the hop it would use is not an IP address.
 */
export function forwardedAddress(
  trusted: readonly string[],
): (c: Context) => string | null {
  const trust = proxyaddr.compile([...trusted]);
  return (c) => {
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)
      ?.incoming;
    if (!incoming?.socket?.remoteAddress) return null;
    const address = proxyaddr(incoming, trust);
    // proxy-addr hands back whatever a trusted balancer passed on: a name or "host:port" would
    // give a client behind it a fresh limit, throttle and audit key for each request.
    if (isIP(address) === 0)
      throw malformedRequest(
        "X-Forwarded-For names something that is not an IP address. Send the client's address, or no X-Forwarded-For at all.",
      );
    return address;
  };
}
