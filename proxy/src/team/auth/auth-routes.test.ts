import { errorHandler } from "@vics/server-kit/error-handlers";
import { silentLogger } from "@vics/server-kit/logger";
import { requestId } from "@vics/server-kit/request-id";
import { Hono } from "hono";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AppEnv } from "../http/app-env.ts";
import { PROXY_PROBLEMS } from "../../gateway/http/problem.ts";
import type { ProxyStore } from "../store/proxy-store.ts";
import { openSqliteProxyStore } from "../store/sqlite/sqlite-proxy-store.ts";
import { registerAuthRoutes } from "./auth-routes.ts";
import { createOneTimeLink } from "./one-time-links.ts";
import { hashPassword } from "./passwords.ts";
import { loadSession } from "./session-middleware.ts";
import { Sessions, sessionCookie } from "./sessions.ts";
import { SignInThrottle } from "./sign-in-throttle.ts";

const PASSWORD = "sunflower over the depot";
let store: ProxyStore;
let app: Hono<AppEnv>;

beforeEach(async () => {
  store = openSqliteProxyStore({ path: ":memory:", auditRetentionDays: 30 });
  const sessions = new Sessions(store, Date.now, {
    idleMs: 3_600_000,
    absoluteMs: 7_200_000,
  });
  const cookie = sessionCookie(undefined);
  app = new Hono<AppEnv>();
  app.use(requestId);
  app.use(loadSession(sessions, cookie));
  registerAuthRoutes(app, {
    store,
    sessions,
    throttle: new SignInThrottle({
      perAccount: 3,
      perAddress: 100,
      windowSeconds: 900,
    }),
    cookie,
    now: Date.now,
    localSignIn: true,
    oidcLabel: null,
  });
  app.onError(
    errorHandler({ logger: silentLogger, internal: PROXY_PROBLEMS.internal }),
  );
  await store.createUser(
    {
      email: "ann@example.org",
      name: "Ann",
      role: "fleet",
      passwordHash: await hashPassword(PASSWORD),
    },
    new Date(),
  );
});
afterEach(() => store.close());

const post = (path: string, body: unknown, cookie?: string) =>
  app.request(path, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      ...(cookie && { Cookie: cookie }),
    },
    body: JSON.stringify(body),
  });
const getSession = (cookie?: string) =>
  app.request(
    "/api/auth/session",
    cookie ? { headers: { Cookie: cookie } } : {},
  );
interface Answer {
  detail: string;
  code: string;
  user: { email: string; role: string };
  requestId: string;
}
const json = (response: Response) => response.json() as Promise<Answer>;
const cookieOf = (response: Response) =>
  response.headers.get("Set-Cookie")!.split(";")[0]!;
const signIn = (
  email = "ann@example.org",
  password = PASSWORD,
  cookie?: string,
) => post("/api/auth/sign-in", { email, password }, cookie);

describe("signing in with a password", () => {
  it("sets an HttpOnly, SameSite=Lax session cookie and answers who signed in", async () => {
    const response = await signIn();
    expect(response.status).toBe(200);
    const setCookie = response.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith("vics_session="));
    expect(setCookie).toMatch(
      /^vics_session=[\w-]{43}; Max-Age=7200; Path=\/; HttpOnly; SameSite=Lax$/,
    );
    expect(await json(response)).toMatchObject({
      user: {
        email: "ann@example.org",
        name: "Ann",
        role: "fleet",
        hasPassword: true,
      },
    });
    const session = await getSession(cookieOf(response));
    expect(session.status).toBe(200);
    expect((await json(session)).user.email).toBe("ann@example.org");
  });

  it("gives an unknown email and a wrong password the same answer", async () => {
    const unknown = await signIn("nobody@example.org");
    const wrong = await signIn("ann@example.org", "not the password at all");
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    const [a, b] = [await json(unknown), await json(wrong)];
    expect({ ...a, requestId: "" }).toEqual({ ...b, requestId: "" });
    expect(a.detail).toBe("The email or password is not right.");
    expect(unknown.headers.get("Set-Cookie")).toBeNull();
  });

  it("stops brute force with a wait in words and Retry-After, even for the right password", async () => {
    for (let i = 0; i < 3; i++)
      await signIn("ann@example.org", `guess number ${i}`);
    const response = await signIn();
    expect(response.status).toBe(429);
    expect(Number(response.headers.get("Retry-After"))).toBeGreaterThan(800);
    expect((await json(response)).detail).toMatch(
      /^Too many failed sign-ins\. .*try again in 15 minutes/,
    );
  });

  it("never keeps a session id the browser had before (fixation)", async () => {
    const planted = cookieOf(await signIn());
    const response = await signIn("ann@example.org", PASSWORD, planted);
    const fresh = cookieOf(response);
    expect(fresh).not.toBe(planted);
    expect((await getSession(planted)).status).toBe(401);
    expect((await getSession(fresh)).status).toBe(200);
  });

  it("records sign-ins and failed sign-ins, naming the email tried", async () => {
    await signIn("nobody@example.org");
    await signIn();
    const events = await store.searchAudit({ limit: 10 });
    expect(
      events.map((event) => [event.action, event.userEmail, event.outcome]),
    ).toEqual([
      ["sign-in", "ann@example.org", "ok"],
      ["sign-in.failed", "nobody@example.org", "wrong"],
    ]);
  });
});

describe("a stranger guessing an account's password", () => {
  it("cannot lock out the owner's browser, which signed in before", async () => {
    const first = await signIn();
    const device = first.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith("vics_device="));
    expect(device).toMatch(
      /^vics_device=[\w-]{43}; Max-Age=1209600; Path=\/; HttpOnly; SameSite=Lax$/,
    );
    for (let i = 0; i < 3; i++)
      await signIn("ann@example.org", `guess number ${i}`);
    expect((await signIn()).status).toBe(429);
    const owner = await signIn(
      "ann@example.org",
      PASSWORD,
      device!.split(";")[0],
    );
    expect(owner.status).toBe(200);
  });
});

describe("signed out", () => {
  it("gets 401 SIGN_IN_REQUIRED, also with a cookie from no session, which the answer leaves alone", async () => {
    const none = await getSession();
    expect(none.status).toBe(401);
    expect((await json(none)).code).toBe("SIGN_IN_REQUIRED");
    const forged = await getSession(`vics_session=${"A".repeat(43)}`);
    expect(forged.status).toBe(401);
    // Clearing it could land after a sign-in answered at the same moment (a one-time link's
    // page asks who is signed in and signs in at once) and end the new session.
    expect(forged.headers.get("Set-Cookie")).toBeNull();
  });

  it("after sign-out, the old cookie opens nothing: the session is deleted on the server", async () => {
    const cookie = cookieOf(await signIn());
    const out = await post("/api/auth/sign-out", {}, cookie);
    expect(await json(out)).toEqual({ redirectTo: "/sign-in" });
    expect(out.headers.get("Set-Cookie")).toMatch(/Max-Age=0/);
    expect((await getSession(cookie)).status).toBe(401);
  });

  it("sign-out everywhere ends every session of the user", async () => {
    const first = cookieOf(await signIn());
    const second = cookieOf(await signIn());
    expect(
      (await post("/api/auth/sign-out-everywhere", {}, first)).status,
    ).toBe(204);
    expect((await getSession(second)).status).toBe(401);
  });
});

describe("one-time links", () => {
  const linkToken = async (purpose: "invite" | "sign-in") => {
    const user = await store.createUser(
      { email: `${purpose}@example.org`, name: "", role: "admin" },
      new Date(),
    );
    const { url } = await createOneTimeLink(store, {
      user,
      purpose,
      origin: "http://127.0.0.1:3000",
      now: Date.now(),
    });
    return new URL(url).hash.slice("#token=".length);
  };

  it("an invitation sets a password, refusing a weak one without spending the link, and signs in", async () => {
    const token = await linkToken("invite");
    const weak = await post("/api/auth/set-password", {
      token,
      password: "short",
    });
    expect(weak.status).toBe(400);
    expect((await json(weak)).detail).toMatch(/at least 12 characters/);
    const set = await post("/api/auth/set-password", {
      token,
      password: PASSWORD,
    });
    expect(set.status).toBe(200);
    expect((await getSession(cookieOf(set))).status).toBe(200);
    const again = await post("/api/auth/set-password", {
      token,
      password: PASSWORD,
    });
    expect(again.status).toBe(400);
    expect((await json(again)).code).toBe("LINK_NOT_USABLE");
    expect((await signIn("invite@example.org")).status).toBe(200);
  });

  it("the one-time sign-in link signs in once", async () => {
    const token = await linkToken("sign-in");
    const first = await post("/api/auth/sign-in-link", { token });
    expect(first.status).toBe(200);
    expect((await json(first)).user.role).toBe("admin");
    expect((await post("/api/auth/sign-in-link", { token })).status).toBe(400);
  });

  it("a link sent to the other endpoint is refused there and still works where it belongs", async () => {
    const signInToken = await linkToken("sign-in");
    const wrong = await post("/api/auth/set-password", {
      token: signInToken,
      password: PASSWORD,
    });
    expect(wrong.status).toBe(400);
    expect((await json(wrong)).code).toBe("LINK_NOT_USABLE");
    expect(
      (await post("/api/auth/sign-in-link", { token: signInToken })).status,
    ).toBe(200);

    const inviteToken = await linkToken("invite");
    const misplaced = await post("/api/auth/sign-in-link", {
      token: inviteToken,
    });
    expect(misplaced.status).toBe(400);
    const set = await post("/api/auth/set-password", {
      token: inviteToken,
      password: PASSWORD,
    });
    expect(set.status).toBe(200);
  });
});

describe("changing one's password", () => {
  it("needs the current one, and signs out every other session", async () => {
    const here = cookieOf(await signIn());
    const elsewhere = cookieOf(await signIn());
    const wrong = await post(
      "/api/auth/password",
      { currentPassword: "nope", newPassword: "a new long passphrase" },
      here,
    );
    expect((await json(wrong)).detail).toBe(
      "Your current password is not right.",
    );
    const changed = await post(
      "/api/auth/password",
      { currentPassword: PASSWORD, newPassword: "a new long passphrase" },
      here,
    );
    expect(changed.status).toBe(204);
    expect((await getSession(elsewhere)).status).toBe(401);
    expect((await getSession(cookieOf(changed))).status).toBe(200);
    expect(
      (await signIn("ann@example.org", "a new long passphrase")).status,
    ).toBe(200);
  });

  it("is throttled like sign-in, even for the right one, and each failure is audited", async () => {
    const here = cookieOf(await signIn());
    const change = (currentPassword: string) =>
      post(
        "/api/auth/password",
        { currentPassword, newPassword: "a new long passphrase" },
        here,
      );
    for (let i = 0; i < 3; i++)
      expect((await change(`guess number ${i}`)).status).toBe(400);
    const throttled = await change(PASSWORD);
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get("Retry-After"))).toBeGreaterThan(800);
    expect((await json(throttled)).detail).toMatch(
      /^Too many wrong current passwords\. .*try again in 15 minutes/,
    );
    // More tries once throttled: counted in the one event, not a row each.
    for (let i = 0; i < 20; i++)
      expect((await change(`guess number ${i}`)).status).toBe(429);
    const events = await store.searchAudit({ limit: 50 });
    expect(
      events
        .filter((event) => event.action === "user.password")
        .map((event) => [event.userEmail, event.outcome, event.count ?? 1]),
    ).toEqual([
      ["ann@example.org", "throttled", 21],
      ["ann@example.org", "wrong", 1],
      ["ann@example.org", "wrong", 1],
      ["ann@example.org", "wrong", 1],
    ]);
  });

  it("refuses a new password that is the current one", async () => {
    const here = cookieOf(await signIn());
    const same = await post(
      "/api/auth/password",
      { currentPassword: PASSWORD, newPassword: PASSWORD },
      here,
    );
    expect(same.status).toBe(400);
    expect((await json(same)).detail).toBe(
      "Your new password is the same as your current one. Choose a new one.",
    );
  });
});
