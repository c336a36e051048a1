import type { Context } from "hono";
import type { IncomingMessage } from "node:http";

/**
 * The address of the socket the request came on. Behind a load balancer that is the load
 * balancer; trusting X-Forwarded-For from listed hops comes with TRUSTED_PROXIES. Null when
 * there is no socket (a test calling app.request()).
 */
export function clientAddress(c: Context): string | null {
  const env = c.env as { incoming?: IncomingMessage } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? null;
}
