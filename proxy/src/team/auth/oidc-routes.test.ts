import { errorHandler } from "@vics/server-kit/error-handlers";
import { silentLogger } from "@vics/server-kit/logger";
import { requestId } from "@vics/server-kit/request-id";
import { Hono } from "hono";
import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  it,
} from "vitest";
import type { AppEnv } from "../http/app-env.ts";
import { PROXY_PROBLEMS } from "../../gateway/http/problem.ts";
import { AUTH_PATHS, OidcLinkAnswerSchema, type AdminUser } from "@vics/shared";
import type { ProxyStore, User } from "../store/proxy-store.ts";
import { openSqliteProxyStore } from "../store/sqlite/sqlite-proxy-store.ts";
import {
  signInAtProvider,
  startTestProvider,
  type TestProvider,
} from "../../testing/oidc-provider.ts";
import { registerAuthRoutes, type AuthDeps } from "./auth-routes.ts";
import { OidcSignIn } from "./oidc.ts";
import { registerOidcRoutes } from "./oidc-routes.ts";
import { loadSession } from "./session-middleware.ts";
import { Sessions, sessionCookie } from "./sessions.ts";
import { SignInThrottle } from "./sign-in-throttle.ts";

const ORIGIN = "http://127.0.0.1:39998";
const CALLBACK = `${ORIGIN}/api/auth/oidc/callback`;
let provider: TestProvider;
let store: ProxyStore;
let app: Hono<AppEnv>;
let sessions: Sessions;
/** The routes' clock: real time unless a test moves it on. */
const clock = {
  offset: 0,
  get now() {
    return Date.now() + this.offset;
  },
};
/** The names of the store's methods called since the test began. */
let storeCalls: string[];

function recordingCalls(target: ProxyStore): ProxyStore {
  storeCalls = [];
  return new Proxy(target, {
    get(object, name, receiver) {
      const value = Reflect.get(object, name, receiver) as unknown;
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        storeCalls.push(String(name));
        return (value as (...a: unknown[]) => unknown).apply(object, args);
      };
    },
  });
}

beforeAll(async () => {
  provider = await startTestProvider({
    redirectUri: CALLBACK,
    postLogoutRedirectUri: `${ORIGIN}/sign-in`,
    accounts: {
      ann: { email: "ann@example.org", email_verified: true, name: "Ann" },
      stranger: { email: "x@elsewhere.example", email_verified: true },
    },
  });
});
afterAll(() => provider.close());

beforeEach(async () => {
  store = recordingCalls(
    openSqliteProxyStore({ path: ":memory:", auditRetentionDays: 30 }),
  );
  const oidc = await OidcSignIn.discover(
    {
      issuer: provider.issuer,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
      label: "Example",
      allowedDomains: [],
      allowHttpIssuer: true,
    },
    store,
    ORIGIN,
  );
  const cookie = sessionCookie(undefined);
  sessions = new Sessions(store, Date.now, {
    idleMs: 3_600_000,
    absoluteMs: 7_200_000,
  });
  const deps: AuthDeps = {
    store,
    sessions,
    throttle: new SignInThrottle(),
    cookie,
    now: () => clock.now,
    localSignIn: true,
    oidcLabel: oidc.label,
    providerSignOut: (idToken) =>
      oidc.endSessionUrl(idToken, `${ORIGIN}/sign-in`),
  };
  app = new Hono<AppEnv>();
  app.use(requestId);
  app.use(loadSession(sessions, cookie));
  registerAuthRoutes(app, deps);
  registerOidcRoutes(app, deps, oidc);
  app.onError(
    errorHandler({ logger: silentLogger, internal: PROXY_PROBLEMS.internal }),
  );
  ann = await store.createUser(
    { email: "ann@example.org", name: "", role: "staff" },
    new Date(),
  );
});
let ann: User;
afterEach(() => {
  clock.offset = 0;
  return store.close();
});

const cookieOf = (response: Response, name: string) =>
  response.headers
    .getSetCookie()
    .find((line) => line.startsWith(`${name}=`))
    ?.split(";")[0];

/** Start, the provider's form, then the callback as the browser makes it. */
async function throughProvider(login: string, returnTo: string) {
  const start = await app.request(
    `/api/auth/oidc/start?returnTo=${encodeURIComponent(returnTo)}`,
  );
  expect(start.status).toBe(302);
  const loginCookie = cookieOf(start, "vics_oidc")!;
  expect(start.headers.getSetCookie()[0]).toMatch(
    /Path=\/api\/auth\/oidc\/callback; HttpOnly; SameSite=Lax/,
  );
  const back = await signInAtProvider(
    new URL(start.headers.get("Location")!),
    login,
    CALLBACK,
  );
  return app.request(`${back.pathname}${back.search}`, {
    headers: { Cookie: loginCookie },
  });
}

describe("OIDC routes", () => {
  it("sign in and return to where the user was, then sign out at the provider too", async () => {
    const callback = await throughProvider("ann", "/fleet?tab=1");
    expect(callback.status).toBe(302);
    expect(callback.headers.get("Location")).toBe("/fleet?tab=1");
    const session = cookieOf(callback, "vics_session")!;
    const me = await app.request("/api/auth/session", {
      headers: { Cookie: session },
    });
    expect(((await me.json()) as { user: { email: string } }).user.email).toBe(
      "ann@example.org",
    );
    const out = await app.request("/api/auth/sign-out", {
      method: "POST",
      headers: { Cookie: session },
    });
    const { redirectTo } = (await out.json()) as { redirectTo: string };
    expect(new URL(redirectTo).origin).toBe(provider.issuer);
    expect(
      new URL(redirectTo).searchParams.get("post_logout_redirect_uri"),
    ).toBe(`${ORIGIN}/sign-in`);
  });

  it("never return to another site (no open redirect)", async () => {
    for (const returnTo of [
      "//evil.example/x",
      "https://evil.example",
      "/\\evil.example",
    ]) {
      const callback = await throughProvider("ann", returnTo);
      expect(callback.headers.get("Location")).toBe("/");
    }
  });

  it("send a refused sign-in back to the sign-in page with its reason, and audit it", async () => {
    const callback = await throughProvider("stranger", "/");
    expect(callback.headers.get("Location")).toBe("/sign-in?oidc=no-account");
    expect(cookieOf(callback, "vics_session")).toBeUndefined();
    const [event] = await store.searchAudit({ limit: 1 });
    expect(event).toMatchObject({
      action: "sign-in.failed",
      outcome: "no-account",
    });
  });

  it("refuse a callback without the browser's own sign-in cookie", async () => {
    const start = await app.request("/api/auth/oidc/start");
    const back = await signInAtProvider(
      new URL(start.headers.get("Location")!),
      "ann",
      CALLBACK,
    );
    const callback = await app.request(`${back.pathname}${back.search}`);
    expect(callback.headers.get("Location")).toBe("/sign-in?oidc=failed");
  });

  it("count a signed-out flood of refused callbacks in one audit event, not a row each", async () => {
    for (let i = 0; i < 200; i++) {
      const callback = await app.request(
        `/api/auth/oidc/callback?code=junk${i}&state=junk`,
        { headers: { Cookie: `vics_oidc=junk${i}` } },
      );
      expect(callback.headers.get("Location")).toBe("/sign-in?oidc=failed");
    }
    const refused = (await store.searchAudit({ limit: 50 })).filter(
      (event) => event.action === "sign-in.failed",
    );
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ outcome: "failed", count: 200 });
  });
});

describe("a pending OIDC sign-in (issue 33, point 11)", () => {
  it("is kept in the browser's cookie: 1,000 starts write nothing to the store", async () => {
    await store.ping();
    storeCalls.length = 0;
    for (let i = 0; i < 1000; i++) {
      const start = await app.request(
        `/api/auth/oidc/start?returnTo=${encodeURIComponent(`/fleet/${i}`)}`,
      );
      expect(start.status).toBe(302);
      expect(cookieOf(start, "vics_oidc")).toBeDefined();
    }
    expect(storeCalls).toEqual([]);
  });

  it("is refused when its cookie was changed, or is from another start", async () => {
    const start = await app.request("/api/auth/oidc/start");
    const other = await app.request("/api/auth/oidc/start");
    const [name, value] = cookieOf(start, "vics_oidc")!.split("=") as [
      string,
      string,
    ];
    const flipped =
      value.slice(0, 20) + (value[20] === "A" ? "B" : "A") + value.slice(21);
    const back = await signInAtProvider(
      new URL(start.headers.get("Location")!),
      "ann",
      CALLBACK,
    );
    for (const cookie of [
      `${name}=${flipped}`,
      `${name}=${value.slice(0, -4)}`,
      `${name}=not-a-sealed-login`,
      cookieOf(other, "vics_oidc")!,
    ]) {
      const callback = await app.request(`${back.pathname}${back.search}`, {
        headers: { Cookie: cookie },
      });
      expect(callback.headers.get("Location")).toBe("/sign-in?oidc=failed");
      expect(cookieOf(callback, "vics_session")).toBeUndefined();
    }
  });

  it("is refused after its ten minutes, whatever the cookie's own Max-Age", async () => {
    const start = await app.request("/api/auth/oidc/start");
    const back = await signInAtProvider(
      new URL(start.headers.get("Location")!),
      "ann",
      CALLBACK,
    );
    clock.offset = 10 * 60_000 + 1;
    const callback = await app.request(`${back.pathname}${back.search}`, {
      headers: { Cookie: cookieOf(start, "vics_oidc")! },
    });
    expect(callback.headers.get("Location")).toBe("/sign-in?oidc=failed");
    expect(cookieOf(callback, "vics_session")).toBeUndefined();
  });
});

/** A signed-in browser's session cookie for `user`. */
const signedInAs = async (user: User) =>
  `vics_session=${await sessions.start(user)}`;

const events = async (action: string) =>
  (await store.searchAudit({ limit: 50 })).filter(
    (event) => event.action === action,
  );

describe("linking an OIDC identity to an account (issue 33, point 7)", () => {
  it("links an invited account that never signed in, as its own audit event", async () => {
    const callback = await throughProvider("ann", "/");
    expect(callback.headers.get("Location")).toBe("/");
    expect(await events("user.oidc-link")).toMatchObject([
      {
        userId: ann.id,
        outcome: "ok",
        detail: { by: "invitation", issuer: provider.issuer, subject: "ann" },
      },
    ]);
  });

  it("never links an account in use by email: the sign-in page says how to link it", async () => {
    await store.updateUser(ann.id, { passwordHash: "$argon2id$x" });
    const callback = await throughProvider("ann", "/");
    expect(callback.headers.get("Location")).toBe("/sign-in?oidc=link-needed");
    expect(cookieOf(callback, "vics_session")).toBeUndefined();
    expect((await store.findUserById(ann.id))?.oidcSubject).toBeNull();
    expect(await events("user.oidc-link")).toEqual([]);
  });

  it("lets the signed-in owner link their organisation sign-in, then undo it", async () => {
    await store.updateUser(ann.id, { passwordHash: "$argon2id$x" });
    const session = await signedInAs(ann);
    const start = await app.request(AUTH_PATHS.oidcLink, {
      method: "POST",
      headers: { Cookie: session },
    });
    expect(start.status).toBe(200);
    const { redirectTo } = OidcLinkAnswerSchema.parse(await start.json());
    const pending = cookieOf(start, "vics_oidc")!;
    const back = await signInAtProvider(new URL(redirectTo), "ann", CALLBACK);
    // Another browser (no session) cannot finish it, even with the cookie.
    const elsewhere = await app.request(`${back.pathname}${back.search}`, {
      headers: { Cookie: pending },
    });
    expect(elsewhere.headers.get("Location")).toBe("/account?oidc-link=failed");
    const again = await app.request(AUTH_PATHS.oidcLink, {
      method: "POST",
      headers: { Cookie: session },
    });
    const back2 = await signInAtProvider(
      new URL(OidcLinkAnswerSchema.parse(await again.json()).redirectTo),
      "ann",
      CALLBACK,
    );
    const linked = await app.request(`${back2.pathname}${back2.search}`, {
      headers: { Cookie: `${cookieOf(again, "vics_oidc")!}; ${session}` },
    });
    expect(linked.headers.get("Location")).toBe("/account?oidc-link=linked");
    expect((await store.findUserById(ann.id))?.oidcSubject).toBe("ann");
    // Newest first: the link, and the other browser's refused attempt.
    expect(await events("user.oidc-link")).toMatchObject([
      {
        userId: ann.id,
        outcome: "ok",
        detail: { by: "owner", subject: "ann" },
      },
      { userId: null, outcome: "failed", detail: { by: "owner" } },
    ]);

    const undo = await app.request(AUTH_PATHS.oidcLink, {
      method: "DELETE",
      headers: { Cookie: session },
    });
    expect(undo.status).toBe(204);
    expect((await store.findUserById(ann.id))?.oidcSubject).toBeNull();
    expect(await events("user.oidc-unlink")).toMatchObject([
      { userId: ann.id, detail: { by: "self", subject: "ann" } },
    ]);
  });

  it("lets a session link only the owner's own identity: same verified email, and no link replaced", async () => {
    await store.updateUser(ann.id, { passwordHash: "$argon2id$x" });
    const session = await signedInAs(ann);
    const link = async (login: string) => {
      const start = await app.request(AUTH_PATHS.oidcLink, {
        method: "POST",
        headers: { Cookie: session },
      });
      const { redirectTo } = OidcLinkAnswerSchema.parse(await start.json());
      const back = await signInAtProvider(new URL(redirectTo), login, CALLBACK);
      const done = await app.request(`${back.pathname}${back.search}`, {
        headers: {
          Cookie: `${session}; ${cookieOf(start, "vics_oidc")!}`,
        },
      });
      return done.headers.get("Location");
    };
    // Someone at the owner's unattended desk links their own organisation identity: refused.
    expect(await link("stranger")).toBe("/account?oidc-link=email-differs");
    expect((await store.findUserById(ann.id))?.oidcSubject).toBeNull();
    expect(await link("ann")).toBe("/account?oidc-link=linked");
    await store.updateUser(ann.id, {
      oidc: { issuer: provider.issuer, subject: "ann-old" },
    });
    expect(await link("ann")).toBe("/account?oidc-link=already-linked");
    expect((await store.findUserById(ann.id))?.oidcSubject).toBe("ann-old");
  });

  it("keeps the owner from undoing the link that is their only way in", async () => {
    await throughProvider("ann", "/");
    const session = await signedInAs((await store.findUserById(ann.id))!);
    const undo = await app.request(AUTH_PATHS.oidcLink, {
      method: "DELETE",
      headers: { Cookie: session },
    });
    expect(undo.status).toBe(409);
    expect((await store.findUserById(ann.id))?.oidcSubject).toBe("ann");
  });

  it("keeps an admin from undoing, on the users page, the link that is their own only way in", async () => {
    await store.updateUser(ann.id, { role: "admin" });
    await throughProvider("ann", "/");
    const asAnn = await signedInAs((await store.findUserById(ann.id))!);
    const undo = await app.request(`${AUTH_PATHS.users}/${ann.id}/oidc-link`, {
      method: "DELETE",
      headers: { Cookie: asAnn },
    });
    expect(undo.status).toBe(409);
    expect((await store.findUserById(ann.id))?.oidcSubject).toBe("ann");
    expect(await events("user.oidc-unlink")).toEqual([]);
  });

  it("keeps an admin who undoes their own link on the users page signed in, on a new session", async () => {
    await store.updateUser(ann.id, {
      role: "admin",
      passwordHash: "$argon2id$x",
      oidc: { issuer: provider.issuer, subject: "ann" },
    });
    const asAnn = await signedInAs((await store.findUserById(ann.id))!);
    const undo = await app.request(`${AUTH_PATHS.users}/${ann.id}/oidc-link`, {
      method: "DELETE",
      headers: { Cookie: asAnn },
    });
    expect(undo.status).toBe(200);
    expect((await store.findUserById(ann.id))?.oidcSubject).toBeNull();
    const renewed = cookieOf(undo, "vics_session");
    expect(renewed).toBeDefined();
    const me = await app.request(AUTH_PATHS.session, {
      headers: { Cookie: renewed! },
    });
    expect(me.status).toBe(200);
  });

  it("lets an admin allow one link by email, and undo a link, signing its sessions out", async () => {
    await store.updateUser(ann.id, { passwordHash: "$argon2id$x" });
    const admin = await store.createUser(
      { email: "admin@example.org", name: "Admin", role: "admin" },
      new Date(),
    );
    const asAdmin = await signedInAs(admin);
    const asAnn = await signedInAs(ann);
    const path = `${AUTH_PATHS.users}/${ann.id}/oidc-link`;
    const refused = await app.request(path, {
      method: "POST",
      headers: { Cookie: asAnn },
    });
    expect(refused.status).toBe(403);
    const allow = await app.request(path, {
      method: "POST",
      headers: { Cookie: asAdmin },
    });
    expect(allow.status).toBe(200);
    // The users page shows the leave while it is open.
    const allowed = (await allow.json()) as { user: AdminUser };
    const left = Date.parse(allowed.user.linkAllowedUntil!) - clock.now;
    expect(left).toBeGreaterThan(71 * 3_600_000);
    expect(left).toBeLessThanOrEqual(72 * 3_600_000);
    expect(await events("user.oidc-allow")).toMatchObject([
      { userId: admin.id, detail: { user: "ann@example.org" } },
    ]);
    const callback = await throughProvider("ann", "/");
    expect(callback.headers.get("Location")).toBe("/");
    expect(await events("user.oidc-link")).toMatchObject([
      { userId: ann.id, detail: { by: "admin", subject: "ann" } },
    ]);
    const undo = await app.request(path, {
      method: "DELETE",
      headers: { Cookie: asAdmin },
    });
    expect(undo.status).toBe(200);
    expect((await store.findUserById(ann.id))?.oidcSubject).toBeNull();
    expect(await events("user.oidc-unlink")).toMatchObject([
      {
        userId: admin.id,
        detail: { by: "admin", user: "ann@example.org", subject: "ann" },
      },
    ]);
    const me = await app.request(AUTH_PATHS.session, {
      headers: { Cookie: asAnn },
    });
    expect(me.status).toBe(401);
  });
});
