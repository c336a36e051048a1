// OIDC sign-in in the browser: a real OpenID Connect provider (oidc-provider) in this worker,
// and a proxy of its own configured for it, in front of the main stack's service. A person of
// an allowed domain signs in through the provider's own form, lands where they were going,
// checks a vehicle, and signs out at the provider too.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startTestProvider } from "@vics/proxy/testing/oidc-provider";
import { freePort } from "@vics/shared/testing/free-port";
import { stopChild } from "../../../scripts/load/children.ts";
import { waitUntilAnswering } from "../faults/fault-stack.ts";
import { expect, test } from "../fixtures.ts";
import { stackEnv } from "../stack-env.ts";

const REPO_ROOT = resolve(import.meta.dirname, "../../..");

test.use({ signedInAs: null });

test("sign in with the organisation's identity provider, check a vehicle, and sign out there too", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const { servicePort, dataDir } = await stackEnv();
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const provider = await startTestProvider({
    redirectUri: `${origin}/api/auth/oidc/callback`,
    postLogoutRedirectUri: `${origin}/sign-in`,
    accounts: {
      "sam.ng": {
        email: "sam.ng@example.org",
        email_verified: true,
        name: "Sam Ng",
      },
    },
  });
  const chunks: string[] = [];
  const child = spawn(process.execPath, ["proxy/src/index.ts"], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH,
      HOST: "127.0.0.1",
      PORT: String(port),
      PUBLIC_ORIGIN: origin,
      UPSTREAM_URL: `http://127.0.0.1:${servicePort}`,
      UPSTREAM_API_KEY_FILE: join(dataDir, "proxy-api-key"),
      PROXY_DATABASE_PATH: join(
        mkdtempSync(join(tmpdir(), "vics-oidc-proxy-")),
        "proxy.sqlite",
      ),
      WEB_DIST: "web/dist",
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
      OIDC_LABEL: "Sign in with Example Org",
      OIDC_ALLOWED_DOMAINS: "example.org",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk: Buffer) => chunks.push(chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => chunks.push(chunk.toString()));
  try {
    await waitUntilAnswering(origin, child, () => chunks.join(""));

    // A deep link while signed out, then the provider's button.
    await page.goto(`${origin}/compliance/AB12CDE`);
    await page.getByRole("link", { name: "Sign in with Example Org" }).click();
    // The provider's own pages: its sign-in form, then its consent.
    await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/`));
    await page.locator('input[name="login"]').fill("sam.ng");
    await page.locator('input[name="password"]').fill("any");
    await page.locator('button[type="submit"]').click();
    await page.locator('button[type="submit"]').click();

    // Back where they were going, signed in as the provider said.
    await expect(page).toHaveURL(`${origin}/compliance/AB12CDE`);
    await expect(page.getByText("Signed in as")).toContainText("Sam Ng");
    await expect(page.getByRole("main")).toContainText(/AB12 ?CDE/);
    // An allowed domain's first sign-in is the lowest role: no fleet runs.
    await expect(
      page.getByRole("navigation").getByRole("link", { name: "Fleet check" }),
    ).toHaveCount(0);

    // Sign-out ends the session here and at the provider (RP-initiated logout).
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/`));
    await page.locator('button[type="submit"]').first().click();
    await expect(page).toHaveURL(new RegExp(`^${origin}/sign-in`));
    await page.goto(`${origin}/compliance`);
    await expect(page).toHaveURL(/\/sign-in/);
  } finally {
    await stopChild(child);
    await provider.close();
  }
});
