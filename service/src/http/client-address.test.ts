// Attack: a caller names its own address in X-Forwarded-For to get a fresh per-address limit.
// The service believes the header only from a load balancer named in TRUSTED_PROXIES, and
// then counts the rightmost address that balancer did not add for itself.
import {
  API_KEY_HEADER,
  RATE_LIMIT_HEADERS,
  UNAUTHENTICATED_LIMIT,
} from "@vics/shared";
import { loopbackServers } from "@vics/server-kit/testing/loopback-server";
import { describe, expect, it } from "vitest";
import { freshServices } from "../testing/services.ts";
import { clientAddress } from "./client-address.ts";

const start = freshServices();
const serve = loopbackServers();

/** A service whose peer, in these tests, is always 127.0.0.1. */
async function behind(trustedProxies: string[]) {
  const service = await start({ clientAddress: clientAddress(trustedProxies) });
  const { base } = await serve(service.app.fetch);
  /** A wrong key "from" `forwardedFor`: its status and what its address has left. */
  return async (forwardedFor: string) => {
    const response = await fetch(`${base}/v1/vehicle/AB12CDE/insurance`, {
      headers: { [API_KEY_HEADER]: "", "X-Forwarded-For": forwardedFor },
    });
    await response.body?.cancel();
    return {
      status: response.status,
      remaining: Number(response.headers.get(RATE_LIMIT_HEADERS.remaining)),
    };
  };
}

describe("the address the unauthenticated limit counts", () => {
  it("from an untrusted peer, X-Forwarded-For is ignored: every caller is the socket's peer", async () => {
    const send = await behind([]);
    expect(await send("203.0.113.9")).toEqual({
      status: 401,
      remaining: UNAUTHENTICATED_LIMIT - 1,
    });
    expect(await send("203.0.113.10")).toEqual({
      status: 401,
      remaining: UNAUTHENTICATED_LIMIT - 2,
    });
  });

  it("from a trusted peer, the rightmost untrusted hop is the one limited", async () => {
    const send = await behind(["127.0.0.1", "10.0.0.0/8"]);
    // What the client claims (198.51.100.1) is left of what the balancers saw (203.0.113.9).
    for (let i = 1; i <= UNAUTHENTICATED_LIMIT; i++)
      expect(await send("198.51.100.1, 203.0.113.9, 10.0.0.2")).toEqual({
        status: 401,
        remaining: UNAUTHENTICATED_LIMIT - i,
      });
    expect((await send("203.0.113.9")).status).toBe(429);
    // Another client behind the same balancer has its own count, whatever it claims.
    expect(await send("203.0.113.9, 192.0.2.55")).toEqual({
      status: 401,
      remaining: UNAUTHENTICATED_LIMIT - 1,
    });
  });

  it("from a trusted peer, an entry that is not an IP address is refused, not counted as a new caller", async () => {
    const send = await behind(["127.0.0.1"]);
    for (const forwardedFor of ["not-an-address", "203.0.113.9:4711", "_1"])
      expect(await send(forwardedFor)).toMatchObject({ status: 400 });
    // The refusals spent nothing of the balancer's own count, nor made one of their own.
    expect(await send("203.0.113.9")).toEqual({
      status: 401,
      remaining: UNAUTHENTICATED_LIMIT - 1,
    });
  });
});
