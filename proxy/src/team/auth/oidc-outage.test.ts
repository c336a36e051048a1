import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AUTH_PATHS, CLIENT_HEADER } from "@vics/shared";
import { freePort } from "@vics/shared/testing/free-port";
import { openSqliteProxyStore } from "../store/sqlite/sqlite-proxy-store.ts";
import {
  PROXY_ENTRY,
  startNode,
  type LogEvent,
  type RunningChild,
} from "../../testing/child-processes.ts";
import {
  startTestProvider,
  type TestProvider,
} from "../../testing/oidc-provider.ts";
import { hashPassword } from "./passwords.ts";

/**
 * Issue 33, point 6: a proxy started with LOCAL_SIGN_IN=false while its identity provider is
 * down kept passwords on. Here the real proxy starts with the provider down, then the
 * provider comes up on the port the proxy was told of.
 */

const PASSWORD = "a long and unusual passphrase 7";
let child: RunningChild | undefined;
let provider: TestProvider | undefined;
afterEach(async () => {
  child?.process.kill("SIGTERM");
  await child?.exited;
  await provider?.close();
  child = provider = undefined;
});

const about = (event: LogEvent) =>
  typeof event.msg === "string" && /identity provider/.test(event.msg);

describe("LOCAL_SIGN_IN=false with the identity provider down at start", () => {
  it("keeps passwords off, says sign-in is unavailable, and retries until the provider answers", async () => {
    const [proxyPort, providerPort] = [await freePort(), await freePort()];
    const origin = `http://127.0.0.1:${proxyPort}`;
    const storePath = join(
      mkdtempSync(join(tmpdir(), "vics-oidc-outage-")),
      "proxy.sqlite",
    );
    const store = openSqliteProxyStore({
      path: storePath,
      auditRetentionDays: 30,
    });
    await store.createUser(
      {
        email: "admin@example.org",
        name: "Admin",
        role: "admin",
        passwordHash: await hashPassword(PASSWORD),
      },
      new Date(),
    );
    await store.close();

    child = startNode(PROXY_ENTRY, {
      HOST: "127.0.0.1",
      PORT: String(proxyPort),
      PUBLIC_ORIGIN: origin,
      UPSTREAM_URL: "http://127.0.0.1:9",
      UPSTREAM_API_KEY: "vics_oidc_outage_test_key_1234",
      PROXY_DATABASE_PATH: storePath,
      WEB_DIST: tmpdir(),
      LOCAL_SIGN_IN: "false",
      OIDC_ISSUER: `http://127.0.0.1:${providerPort}`,
      OIDC_CLIENT_ID: "vics",
      OIDC_CLIENT_SECRET: "a-test-client-secret-of-some-length",
      OIDC_LABEL: "Sign in with Example",
    });
    await child.waitFor((event) => event.msg === "listening");
    const down = await child.waitFor(about);

    // The right password is refused: passwords are off, whatever the provider's state.
    const signIn = await fetch(`${origin}${AUTH_PATHS.signIn}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", [CLIENT_HEADER]: "test" },
      body: JSON.stringify({ email: "admin@example.org", password: PASSWORD }),
    });
    expect(signIn.status).toBe(404);
    expect(signIn.headers.getSetCookie()).toEqual([]);
    expect(down).toMatchObject({ level: "warn", issuer: expect.any(String) });
    expect(down.retryInSeconds).toBeGreaterThan(0);
    const methods = await fetch(`${origin}${AUTH_PATHS.methods}`, {
      headers: { [CLIENT_HEADER]: "test" },
    });
    expect(await methods.json()).toEqual({
      local: false,
      oidc: { label: "Sign in with Example", available: false },
    });
    // The provider's button leads back to the sign-in page, which says why.
    const start = await fetch(`${origin}${AUTH_PATHS.oidcStart}`, {
      redirect: "manual",
    });
    expect(start.status).toBe(302);
    expect(start.headers.get("Location")).toBe("/sign-in?oidc=unavailable");

    provider = await startTestProvider({
      port: providerPort,
      redirectUri: `${origin}${AUTH_PATHS.oidcCallback}`,
      postLogoutRedirectUri: `${origin}/sign-in`,
      accounts: {},
    });
    await child.waitFor(
      (event) => event.msg === "the identity provider answered",
    );
    const now = await fetch(`${origin}${AUTH_PATHS.methods}`, {
      headers: { [CLIENT_HEADER]: "test" },
    });
    expect(await now.json()).toEqual({
      local: false,
      oidc: { label: "Sign in with Example", available: true },
    });
    const started = await fetch(`${origin}${AUTH_PATHS.oidcStart}`, {
      redirect: "manual",
    });
    expect(started.status).toBe(302);
    expect(new URL(started.headers.get("Location")!).origin).toBe(
      provider.issuer,
    );
    // Still no passwords once the provider is up.
    const again = await fetch(`${origin}${AUTH_PATHS.signIn}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", [CLIENT_HEADER]: "test" },
      body: JSON.stringify({ email: "admin@example.org", password: PASSWORD }),
    });
    expect(again.status).toBe(404);
  }, 60_000);
});
