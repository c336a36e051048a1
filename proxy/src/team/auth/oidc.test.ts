import {
  afterAll,
  beforeAll,
  beforeEach,
  afterEach,
  describe,
  expect,
  it,
} from "vitest";
import type { ProxyStore } from "../store/proxy-store.ts";
import { openSqliteProxyStore } from "../store/sqlite/sqlite-proxy-store.ts";
import {
  signInAtProvider,
  startTestProvider,
  type TestProvider,
} from "../../testing/oidc-provider.ts";
import { OidcRefusedError, OidcSignIn } from "./oidc.ts";

const ORIGIN = "http://127.0.0.1:39999";
const CALLBACK = `${ORIGIN}/api/auth/oidc/callback`;
let provider: TestProvider;
let store: ProxyStore;
let oidc: OidcSignIn;

beforeAll(async () => {
  provider = await startTestProvider({
    redirectUri: CALLBACK,
    postLogoutRedirectUri: `${ORIGIN}/sign-in`,
    accounts: {
      ann: {
        email: "ann@example.org",
        email_verified: true,
        name: "Ann Example",
      },
      newcomer: {
        email: "new@team.example",
        email_verified: true,
        name: "New Person",
      },
      unverified: { email: "root@example.org", email_verified: false },
      stranger: { email: "someone@elsewhere.example", email_verified: true },
    },
  });
});
afterAll(() => provider.close());

beforeEach(async () => {
  store = openSqliteProxyStore({ path: ":memory:", auditRetentionDays: 30 });
  oidc = await OidcSignIn.discover(
    {
      issuer: provider.issuer,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
      label: "Sign in with Example",
      allowedDomains: ["team.example"],
      allowHttpIssuer: true,
    },
    store,
    ORIGIN,
  );
});
afterEach(() => store.close());

/** The whole flow: start, the provider's form, the callback. */
async function signInAs(login: string, returnTo = "/fleet") {
  const { url, cookie } = await oidc.start(returnTo, Date.now());
  const back = await signInAtProvider(url, login, CALLBACK);
  const done = await oidc.finish(back.search, cookie, Date.now());
  if (done.kind !== "sign-in") throw new Error(`a ${done.kind}, not a sign-in`);
  return done;
}

describe("OIDC sign-in against a real provider", () => {
  it("asks with PKCE (S256), state and nonce, and a redirect_uri from the public origin", async () => {
    const { url } = await oidc.start("/", Date.now());
    expect(url.origin).toBe(provider.issuer);
    expect(url.searchParams.get("redirect_uri")).toBe(CALLBACK);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get("state")).toBeTruthy();
    expect(url.searchParams.get("nonce")).toBeTruthy();
    expect(url.searchParams.get("scope")).toBe("openid email profile");
  });

  it("links an invited user at their first sign-in, by verified email, then by issuer and subject", async () => {
    const invited = await store.createUser(
      { email: "ann@example.org", name: "", role: "fleet" },
      new Date(),
    );
    const first = await signInAs("ann", "/fleet?x=1");
    expect(first.linked).toBe("invitation");
    expect(first.user).toMatchObject({
      id: invited.id,
      role: "fleet",
      name: "Ann Example",
      oidcIssuer: provider.issuer,
      oidcSubject: "ann",
    });
    expect(first.returnTo).toBe("/fleet?x=1");
    expect(first.idToken).toMatch(/^ey/);
    const again = await signInAs("ann");
    expect(again.user.id).toBe(invited.id);
    expect(again.linked).toBeNull();
    expect(await store.findUserByOidc(provider.issuer, "ann")).toMatchObject({
      email: "ann@example.org",
    });
  });

  it("creates a staff account only for an allowed domain", async () => {
    const made = await signInAs("newcomer");
    expect(made.created).toBe(true);
    expect(made.user).toMatchObject({
      email: "new@team.example",
      role: "staff",
      passwordHash: null,
    });
    await expect(signInAs("stranger")).rejects.toMatchObject({
      reason: "no-account",
      message:
        "There is no VICS account for someone@elsewhere.example. Ask an admin of VICS to invite you.",
    });
  });

  it("never links by an unverified email, and refuses a disabled user", async () => {
    await store.createUser(
      { email: "root@example.org", name: "Root", role: "admin" },
      new Date(),
    );
    await expect(signInAs("unverified")).rejects.toMatchObject({
      reason: "email-not-verified",
    });
    expect(
      await store.findUserByOidc(provider.issuer, "unverified"),
    ).toBeUndefined();
    const ann = await store.createUser(
      { email: "ann@example.org", name: "", role: "staff" },
      new Date(),
    );
    await store.updateUser(ann.id, { disabledAt: new Date().toISOString() });
    await expect(signInAs("ann")).rejects.toMatchObject({ reason: "disabled" });
  });

  it("never links by email an account in use: one with a password, or one that has signed in", async () => {
    const admin = await store.createUser(
      {
        email: "ann@example.org",
        name: "Ann",
        role: "admin",
        passwordHash: "$argon2id$v=19$m=19456,t=2,p=1$x$y",
      },
      new Date(),
    );
    await expect(signInAs("ann")).rejects.toMatchObject({
      reason: "link-needed",
    });
    expect((await store.findUserById(admin.id))?.oidcSubject).toBeNull();
    await store.updateUser(admin.id, { passwordHash: null });
    await store.updateUser(admin.id, { signedInAt: new Date().toISOString() });
    await expect(signInAs("ann")).rejects.toMatchObject({
      reason: "link-needed",
    });
    expect(await store.findUserByOidc(provider.issuer, "ann")).toBeUndefined();
  });

  it("links by email an account in use only while an admin allows it, and only once", async () => {
    const ann = await store.createUser(
      {
        email: "ann@example.org",
        name: "Ann",
        role: "staff",
        passwordHash: "$argon2id$v=19$m=19456,t=2,p=1$x$y",
      },
      new Date(),
    );
    await store.updateUser(ann.id, { oidcLinkAllowedUntil: Date.now() - 1 });
    await expect(signInAs("ann")).rejects.toMatchObject({
      reason: "link-needed",
    });
    await store.updateUser(ann.id, {
      oidcLinkAllowedUntil: Date.now() + 60_000,
    });
    const done = await signInAs("ann");
    expect(done).toMatchObject({
      user: { id: ann.id, oidcSubject: "ann", oidcLinkAllowedUntil: null },
      linked: "admin",
    });
    expect((await signInAs("ann")).linked).toBeNull();
  });

  it("refuses an answer for another browser's sign-in, or one used twice", async () => {
    const { url } = await oidc.start("/", Date.now());
    const other = await oidc.start("/", Date.now());
    const back = await signInAtProvider(url, "newcomer", CALLBACK);
    // The callback with the other sign-in's cookie: its state does not match.
    await expect(
      oidc.finish(back.search, other.cookie, Date.now()),
    ).rejects.toBeInstanceOf(OidcRefusedError);
    await expect(
      oidc.finish(back.search, undefined, Date.now()),
    ).rejects.toMatchObject({ reason: "failed" });
  });

  it("offers the provider's sign-out page with the id token", async () => {
    const { idToken } = await signInAs("newcomer");
    const url = new URL(oidc.endSessionUrl(idToken, `${ORIGIN}/sign-in`)!);
    expect(url.origin).toBe(provider.issuer);
    expect(url.searchParams.get("id_token_hint")).toBe(idToken);
    expect(url.searchParams.get("post_logout_redirect_uri")).toBe(
      `${ORIGIN}/sign-in`,
    );
  });
});
