import { AUTH_PATHS, CLIENT_HEADER } from "@vics/shared";
import { describe, expect, it } from "vitest";
import { adminUser } from "../users/user-routes.ts";
import { createTestProxy, fakeUpstream } from "../../testing/index.ts";
import { hashPassword, verifyPassword } from "./passwords.ts";
import { Sessions } from "./sessions.ts";

/**
 * The first password of an account that has none (the first admin, someone signed in by a
 * one-time link), on the whole proxy: `app` is such an account's browser.
 */

const PASSWORD = "sunflower over the depot";

async function proxyWithoutPassword(
  options: Parameters<typeof createTestProxy>[0] = {},
) {
  const test = createTestProxy({ fetch: fakeUpstream().fetch, ...options });
  await test.cookie();
  const [me] = await test.store.listUsers();
  return { ...test, me: me! };
}

const setFirst = (
  app: {
    request: (path: string, init: RequestInit) => Promise<Response> | Response;
  },
  newPassword: string,
  headers: Record<string, string> = {},
) =>
  app.request(AUTH_PATHS.firstPassword, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify({ newPassword }),
  });

const signIn = (
  app: {
    request: (path: string, init: RequestInit) => Promise<Response> | Response;
  },
  email: string,
  password: string,
) =>
  app.request(AUTH_PATHS.signIn, {
    method: "POST",
    headers: { [CLIENT_HEADER]: "web", "Content-Type": "application/json" },
    body: JSON.stringify({ email, password }),
  });

describe("setting a first password", () => {
  it("sets it for an account with none, which then signs in with it and shows as active", async () => {
    const { app, anonymous, store, me } = await proxyWithoutPassword();
    expect(adminUser(me)).toMatchObject({ state: "invited", signsInWith: [] });

    const set = await setFirst(app, PASSWORD);
    expect(set.status).toBe(200);
    expect(await set.json()).toMatchObject({
      user: { email: me.email, hasPassword: true, hasOidcLink: false },
    });
    // This browser goes on under a new session.
    expect(set.headers.get("Set-Cookie")).toMatch(/^vics_session=/);

    const after = (await store.findUserById(me.id))!;
    expect(await verifyPassword(PASSWORD, after.passwordHash!)).toBe(true);
    expect(adminUser(after)).toMatchObject({
      state: "active",
      signsInWith: ["password"],
    });
    expect((await signIn(anonymous, me.email, PASSWORD)).status).toBe(200);
    const events = await store.searchAudit({ limit: 50 });
    expect(
      events
        .filter((event) => event.action === "user.password")
        .map((event) => [event.userEmail, event.outcome, event.detail]),
    ).toEqual([[me.email, "ok", { by: "self", first: true }]]);
  });

  it("ends the account's other sessions, as a change does", async () => {
    const { app, anonymous, store, me } = await proxyWithoutPassword();
    const sessions = new Sessions(store, Date.now, {
      idleMs: 3_600_000,
      absoluteMs: 7_200_000,
    });
    const elsewhere = `vics_session=${await sessions.start(me)}`;
    const session = (cookie: string) =>
      anonymous.request(AUTH_PATHS.session, {
        headers: { [CLIENT_HEADER]: "web", Cookie: cookie },
      });
    expect((await session(elsewhere)).status).toBe(200);
    const set = await setFirst(app, PASSWORD);
    expect(set.status).toBe(200);
    expect((await session(elsewhere)).status).toBe(401);
    const here = set.headers.get("Set-Cookie")!.split(";")[0]!;
    expect((await session(here)).status).toBe(200);
  });

  it("refuses an account that has a password: it must give its current one to change it", async () => {
    const { app, store, me } = await proxyWithoutPassword();
    const old = await hashPassword("the password I have already");
    await store.updateUser(me.id, { passwordHash: old });

    const refused = await setFirst(app, PASSWORD);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { detail: string }).detail).toBe(
      "Your account has a password already. To change it, give your current password.",
    );
    expect((await store.findUserById(me.id))!.passwordHash).toBe(old);
  });

  it("refuses an account linked to an organisation sign-in", async () => {
    const { app, store, me } = await proxyWithoutPassword();
    await store.updateUser(me.id, {
      oidc: { issuer: "https://id.example.org", subject: "ann" },
    });
    const refused = await setFirst(app, PASSWORD);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(
      /^You sign in through your organisation/,
    );
    expect((await store.findUserById(me.id))!.passwordHash).toBeNull();
  });

  it("holds the password rules of every other form", async () => {
    const { app, store, me } = await proxyWithoutPassword();
    const weak = await setFirst(app, "short");
    expect(weak.status).toBe(400);
    expect(((await weak.json()) as { detail: string }).detail).toMatch(
      /at least 12 characters/,
    );
    expect((await store.findUserById(me.id))!.passwordHash).toBeNull();
  });

  it("is refused when passwords are off on this server", async () => {
    const { app, store, me } = await proxyWithoutPassword({
      staffAccess: { localSignIn: false },
    });
    const refused = await setFirst(app, PASSWORD);
    expect(refused.status).toBe(404);
    expect((await store.findUserById(me.id))!.passwordHash).toBeNull();
  });

  it("needs a session", async () => {
    const { anonymous } = await proxyWithoutPassword();
    const refused = await setFirst(anonymous, PASSWORD, {
      [CLIENT_HEADER]: "web",
    });
    expect(refused.status).toBe(401);
  });

  it.each([
    [
      "a form on another site",
      {
        Origin: "https://evil.example",
        "Sec-Fetch-Site": "cross-site",
      },
    ],
    ["a request without the web app's header", {}],
  ])(
    "cannot be sent by %s, even with the session's cookie",
    async (_case, headers) => {
      const { proxy, store, me } = await proxyWithoutPassword();
      const refused = await setFirst(proxy, PASSWORD, {
        Host: "localhost",
        ...headers,
      });
      expect(refused.status).toBe(403);
      expect((await store.findUserById(me.id))!.passwordHash).toBeNull();
    },
  );

  it("counts its tries in the lane of a change's, so one cannot go round the other's limit", async () => {
    const { app, store } = await proxyWithoutPassword({
      staffAccess: {
        throttle: { perAccount: 3, perAddress: 100, windowSeconds: 900 },
      },
    });
    for (let i = 0; i < 3; i++) {
      const guess = await app.request(AUTH_PATHS.changePassword, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          currentPassword: `guess ${i}`,
          newPassword: PASSWORD,
        }),
      });
      expect(guess.status).toBe(400);
    }
    const throttled = await setFirst(app, PASSWORD);
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get("Retry-After"))).toBeGreaterThan(800);
    const [me] = await store.listUsers();
    expect(me!.passwordHash).toBeNull();
  });

  describe("only from a session started within 30 minutes (a stolen session cannot keep itself)", () => {
    const MINUTE = 60_000;
    /** The proxy's clock: real time, moved on by `offset`. */
    function movableClock() {
      return {
        offset: 0,
        now() {
          return Date.now() + this.offset;
        },
      };
    }

    it("accepts it 29 minutes after the link's sign-in", async () => {
      const clock = movableClock();
      const { app, store, me } = await proxyWithoutPassword({ clock });
      clock.offset = 29 * MINUTE;
      const set = await setFirst(app, PASSWORD);
      expect(set.status).toBe(200);
      const after = (await store.findUserById(me.id))!;
      expect(await verifyPassword(PASSWORD, after.passwordHash!)).toBe(true);
    });

    it("refuses it 31 minutes after, in words that say what to do, audited and counted", async () => {
      const clock = movableClock();
      const { app, store, me } = await proxyWithoutPassword({ clock });
      clock.offset = 31 * MINUTE;
      for (let i = 0; i < 3; i++) {
        const refused = await setFirst(app, PASSWORD);
        expect(refused.status).toBe(403);
        expect(await refused.json()).toMatchObject({
          code: "FORBIDDEN",
          detail:
            "For your safety, a first password can be set only within 30 minutes of signing in with a one-time link. Ask an admin for a new link (Users, Send password reset), or sign in again with a new start link.",
        });
      }
      expect((await store.findUserById(me.id))!.passwordHash).toBeNull();
      const events = await store.searchAudit({ limit: 50 });
      expect(
        events
          .filter((event) => event.action === "user.password")
          .map((event) => [
            event.userEmail,
            event.outcome,
            event.count ?? 1,
            event.detail,
          ]),
      ).toEqual([
        [me.email, "session too old", 3, { by: "self", first: true }],
      ]);
      // The session itself goes on: only the password needs a fresh one.
      const session = await app.request(AUTH_PATHS.session, {});
      expect(session.status).toBe(200);
    });
  });

  it("keeps the password of a reset link used while the first one was hashed", async () => {
    const test = await proxyWithoutPassword();
    const { app, store, me } = test;
    const reset = await hashPassword("the reset link's password");
    const setFirstPassword = store.setFirstPassword.bind(store);
    // The reset lands between the route's checks and its update.
    store.setFirstPassword = async (userId, hash) => {
      await store.updateUser(userId, { passwordHash: reset });
      return setFirstPassword(userId, hash);
    };
    const refused = await setFirst(app, PASSWORD);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(
      /^Your account has a password already/,
    );
    expect((await store.findUserById(me.id))!.passwordHash).toBe(reset);
  });

  it("counts repeated refusals in one audit event a window, not a row each", async () => {
    const { app, store, me } = await proxyWithoutPassword();
    await store.updateUser(me.id, {
      passwordHash: await hashPassword("the password I have already"),
    });
    for (let i = 0; i < 5; i++)
      expect((await setFirst(app, PASSWORD)).status).toBe(409);
    const events = await store.searchAudit({ limit: 50 });
    expect(
      events
        .filter((event) => event.action === "user.password")
        .map((event) => [event.outcome, event.count ?? 1]),
    ).toEqual([["has a password", 5]]);
  });
});
