import type { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../http/app-env.ts";
import { AUTH_PATHS, CLIENT_HEADER, paths } from "@vics/shared";
import {
  TEST_API_KEY,
  createTestProxy,
  fakeUpstream,
} from "../../testing/index.ts";
import { hashPassword } from "./passwords.ts";

/**
 * The sign-in as an attacker tries it, on the whole proxy: each attack fails. (Fixation, brute
 * force and the answer to an unknown email: auth-routes.test.ts; an open redirect after OIDC:
 * oidc-routes.test.ts; a spoofed X-Forwarded-For: http/client-address.test.ts.)
 */

const PASSWORD = "sunflower over the depot";
const WEB = { [CLIENT_HEADER]: "web" };

async function proxyWithAnn() {
  const upstream = fakeUpstream();
  const test = createTestProxy({ fetch: upstream.fetch });
  await test.store.createUser(
    {
      email: "ann@example.org",
      name: "Ann",
      role: "fleet",
      passwordHash: await hashPassword(PASSWORD),
    },
    new Date(),
  );
  return { ...test, upstream };
}

const signIn = (
  app: Pick<Hono<AppEnv>, "request">,
  email: string,
  password: string,
  headers: Record<string, string> = WEB,
) =>
  app.request(AUTH_PATHS.signIn, {
    method: "POST",
    headers: { ...headers, "Content-Type": "application/json" },
    body: JSON.stringify({ email, password }),
  });

describe("cross-site form posts", () => {
  const crossSite = [
    [
      "a form on another site",
      {
        Origin: "https://evil.example",
        "Sec-Fetch-Site": "cross-site",
        "Content-Type": "application/x-www-form-urlencoded",
      },
    ],
    [
      "a page on a sibling subdomain",
      { "Sec-Fetch-Site": "same-site", ...WEB },
    ],
    ["a form with no custom header", { Origin: "http://localhost" }],
  ] as const;

  it.each(crossSite)(
    "%s cannot sign in, sign out, invite or change a role",
    async (_case, headers) => {
      const { anonymous, proxy, store } = await proxyWithAnn();
      const ann = (await store.findUserByEmail("ann@example.org"))!;
      const attempts = [
        [AUTH_PATHS.signIn, "POST", "email=ann@example.org&password=x"],
        [AUTH_PATHS.signOut, "POST", ""],
        [AUTH_PATHS.users, "POST", "email=mallory@evil.example&role=admin"],
        [`${AUTH_PATHS.users}/${ann.id}`, "PATCH", "role=admin"],
      ] as const;
      // From a browser with an admin's session (proxy sends its cookie), and without one.
      for (const client of [proxy, anonymous])
        for (const [path, method, body] of attempts) {
          const response = await client.request(path, {
            method,
            headers: { Host: "localhost", ...headers },
            body,
          });
          expect(response.status, `${method} ${path}`).toBe(403);
        }
      expect((await store.findUserByEmail("ann@example.org"))!.role).toBe(
        "fleet",
      );
      expect(
        await store.findUserByEmail("mallory@evil.example"),
      ).toBeUndefined();
      // The admin's session is still there: the forged sign-out ended nothing.
      expect(
        (await proxy.request(AUTH_PATHS.session, { headers: WEB })).status,
      ).toBe(200);
    },
  );
});

describe("account enumeration", () => {
  it("an unknown email and a wrong password get the same answer, word for word and header for header", async () => {
    const { anonymous } = await proxyWithAnn();
    const unknown = await signIn(anonymous, "nobody@example.org", PASSWORD);
    const wrong = await signIn(anonymous, "ann@example.org", `${PASSWORD}!`);
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    const body = async (response: Response) => {
      const { requestId: _id, ...rest } = (await response.json()) as Record<
        string,
        unknown
      >;
      return rest;
    };
    expect(await body(unknown)).toEqual(await body(wrong));
    const names = (response: Response) =>
      [...response.headers.keys()].filter((name) => name !== "x-request-id");
    expect(names(unknown)).toEqual(names(wrong));
    expect(unknown.headers.has("Set-Cookie")).toBe(false);
  });
});

describe("a cookie from another session", () => {
  it("a session id from another proxy's store, or altered by one character, opens nothing", async () => {
    const other = await proxyWithAnn();
    const mine = await proxyWithAnn();
    const theirs = await other.cookie();
    const check = `/api${paths.insurance("AB12CDE")}`;
    expect(
      (
        await mine.anonymous.request(check, {
          headers: { ...WEB, Cookie: theirs },
        })
      ).status,
    ).toBe(401);
    const own = await mine.cookie();
    const last = own.at(-1) === "A" ? "B" : "A";
    const altered = own.slice(0, -1) + last;
    expect(
      (
        await mine.anonymous.request(check, {
          headers: { ...WEB, Cookie: altered },
        })
      ).status,
    ).toBe(401);
    expect(mine.upstream.requests).toHaveLength(0);
  });

  it("one person's session never shows another's recent checks", async () => {
    const { app, anonymous, signIn: newSession } = await proxyWithAnn();
    await app.request(`/api${paths.insurance("AB12CDE")}`);
    const bob = await newSession("staff");
    const answer = await anonymous.request(AUTH_PATHS.recentChecks, {
      headers: { ...WEB, Cookie: bob },
    });
    expect(answer.status).toBe(200);
    expect(JSON.stringify(await answer.json())).not.toContain("AB12CDE");
  });
});

describe("secrets", () => {
  it("the proxy's key, a session id and a password are in no log line, and neither the key nor the session id in any answer's body or headers", async () => {
    const { anonymous, log, store } = await proxyWithAnn();
    const answers: string[] = [];
    const keep = async (response: Response) => {
      answers.push(
        [...response.headers.entries()]
          .filter(([name]) => name !== "set-cookie")
          .flat()
          .join("\n"),
        await response.clone().text(),
      );
      return response;
    };
    const signedIn = await keep(
      await signIn(anonymous, "ann@example.org", PASSWORD),
    );
    const cookie = signedIn.headers.get("Set-Cookie")!.split(";")[0]!;
    const sessionId = cookie.split("=")[1]!;
    const headers = { ...WEB, Cookie: cookie };
    await keep(
      await anonymous.request(`/api${paths.insurance("AB12CDE")}`, { headers }),
    );
    await keep(await anonymous.request(`/api${paths.openapi()}`, { headers }));
    await keep(
      await signIn(anonymous, "ann@example.org", "wrong password 123"),
    );
    await keep(
      await anonymous.request(AUTH_PATHS.signOut, { method: "POST", headers }),
    );
    const events = await store.searchAudit({ limit: 50 });
    expect(events.map((event) => event.action)).toEqual(
      expect.arrayContaining([
        "sign-in",
        "check.insurance",
        "sign-in.failed",
        "sign-out",
      ]),
    );

    const logged = log.text();
    expect(logged.length).toBeGreaterThan(0);
    for (const secret of [
      TEST_API_KEY,
      sessionId,
      PASSWORD,
      "wrong password 123",
    ])
      expect(logged).not.toContain(secret);
    for (const answer of answers) {
      expect(answer).not.toContain(TEST_API_KEY);
      expect(answer).not.toContain(sessionId);
    }
    // Nor does the audit keep a session id or a password.
    const audit = JSON.stringify(events);
    for (const secret of [sessionId, PASSWORD, "wrong password 123"])
      expect(audit).not.toContain(secret);
  });
});
