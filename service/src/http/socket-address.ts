import type { Context } from "hono";
import { getConnInfo } from "@hono/node-server/conninfo";

/**
 * The caller's address for the limits without a valid key: the socket's peer. X-Forwarded-For
 * is never trusted; behind a load balancer every caller is the balancer's address until the
 * service is told which proxies to trust.
 */
export const socketAddress = (c: Context): string =>
  getConnInfo(c).remote.address ?? "unknown";
