import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { IncomingMessage } from "node:http";
import { forwardedAddress } from "@vics/server-kit/client-address";
import type { AppEnv } from "./app-env.ts";

/**
 * Finds the client's address once per request: the socket's peer, or, when that peer is one
 * of the load balancers named in TRUSTED_PROXIES, the nearest address in X-Forwarded-For that
 * is not one of them (the kit's forwardedAddress, which the service uses too). X-Forwarded-For
 * from anyone else is ignored, so a client cannot choose the address its sign-ins and audit
 * events are counted against. `trusted`: addresses or CIDR ranges; empty trusts no one. An
 * entry there that is no address (a name, a port) is refused with 400 by the kit: used as it
 * is, it would let a client behind the load balancer pick a new key for each try.
 */
export function resolveClientAddress(trusted: readonly string[]) {
  const resolve = forwardedAddress(trusted);
  // Not async: one more promise per request would buy nothing.
  return createMiddleware<AppEnv>((c, next) => {
    c.set("clientAddress", resolve(c));
    return next();
  });
}

/**
 * The client's address as resolveClientAddress found it; null when there is no socket (a test
 * calling app.request()).
 */
export function clientAddress(c: Context): string | null {
  const resolved = (c as Context<AppEnv>).get("clientAddress");
  if (resolved !== undefined) return resolved;
  const env = c.env as { incoming?: IncomingMessage } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? null;
}
