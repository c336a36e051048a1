import { describe, expect, it } from "vitest";
import { AUTH_PATHS, CLIENT_HEADER } from "@vics/shared";
import { loopbackServers } from "@vics/server-kit/testing/loopback-server";
import { createTestProxy, fakeUpstream } from "../../testing/index.ts";

/** Attack: a client names its own address in X-Forwarded-* to dodge the throttle and the audit. */

const serve = loopbackServers();

async function failedSignInFrom(
  trustedProxies: string[],
  forwardedFor: string,
) {
  const { anonymous, store } = createTestProxy({
    fetch: fakeUpstream().fetch,
    trustedProxies,
  });
  const server = await serve(anonymous.fetch);
  const response = await fetch(`${server.base}${AUTH_PATHS.signIn}`, {
    method: "POST",
    headers: {
      [CLIENT_HEADER]: "web",
      "Content-Type": "application/json",
      "X-Forwarded-For": forwardedFor,
      "X-Forwarded-Proto": "https",
      "X-Forwarded-Host": "evil.example",
    },
    body: JSON.stringify({
      email: "nobody@example.org",
      password: "not the password at all",
    }),
  });
  expect(response.status).toBe(401);
  const [event] = await store.searchAudit({ limit: 1 });
  return event!;
}

describe("the client's address", () => {
  it("from an untrusted peer, X-Forwarded-For is ignored: the socket's address is recorded", async () => {
    const event = await failedSignInFrom([], "203.0.113.9");
    expect(event.action).toBe("sign-in.failed");
    expect(event.clientAddress).toBe("127.0.0.1");
  });

  it("from a load balancer named in TRUSTED_PROXIES, the nearest untrusted hop is the client", async () => {
    const event = await failedSignInFrom(
      ["127.0.0.1"],
      "198.51.100.1, 203.0.113.9",
    );
    expect(event.clientAddress).toBe("203.0.113.9");
  });
});

describe("a load balancer's X-Forwarded-For naming no address", () => {
  it.each(["evil", "198.51.100.1, not-an-address", "203.0.113.9:4711"])(
    "%s is refused with 400, and nothing is counted or recorded against it",
    async (forwardedFor) => {
      const { anonymous, store } = createTestProxy({
        fetch: fakeUpstream().fetch,
        trustedProxies: ["127.0.0.1"],
      });
      const server = await serve(anonymous.fetch);
      const response = await fetch(`${server.base}${AUTH_PATHS.signIn}`, {
        method: "POST",
        headers: {
          [CLIENT_HEADER]: "web",
          "Content-Type": "application/json",
          "X-Forwarded-For": forwardedFor,
        },
        body: JSON.stringify({
          email: "nobody@example.org",
          password: "not the password at all",
        }),
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { detail: string }).detail).toMatch(
        /X-Forwarded-For/,
      );
      expect(await store.searchAudit({ limit: 1 })).toEqual([]);
    },
  );
});
