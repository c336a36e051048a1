// What Chromium does with session cookies on http loopback, where `npm start` runs, and the
// cookie the proxy really sets there (docs/decisions/035-session-cookie-on-loopback.md).
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "../fixtures.ts";
import { stackEnv } from "../stack-env.ts";
import { createStaffUser, proxyStorePath } from "./sign-in.ts";

test.describe("session cookies on http loopback", () => {
  test.use({ signedInAs: null });

  test("Chromium keeps Secure and __Host- cookies from http://127.0.0.1 and http://localhost", async ({
    browser,
  }) => {
    // A server of the test's own that sets one cookie of each kind.
    const server = createServer((request, response) => {
      response.setHeader("Set-Cookie", [
        "__Host-host_probe=1; Path=/; Secure; HttpOnly; SameSite=Lax",
        "secure_probe=1; Path=/; Secure; HttpOnly; SameSite=Lax",
        "plain_probe=1; Path=/; HttpOnly; SameSite=Lax",
      ]);
      response.end(`<p id="sent">${request.headers.cookie ?? "none"}</p>`);
    }).listen(0, "127.0.0.1");
    await once(server, "listening");
    const { port } = server.address() as AddressInfo;
    try {
      for (const host of ["127.0.0.1", "localhost"]) {
        const context = await browser.newContext();
        const page = await context.newPage();
        await page.goto(`http://${host}:${port}/`);
        await page.goto(`http://${host}:${port}/again`);
        // Loopback is a secure context to Chromium: all three are kept and sent back.
        expect((await context.cookies()).map((c) => c.name).sort()).toEqual([
          "__Host-host_probe",
          "plain_probe",
          "secure_probe",
        ]);
        await expect(page.locator("#sent")).toHaveText(
          "__Host-host_probe=1; secure_probe=1; plain_probe=1",
        );
        await context.close();
      }
    } finally {
      server.close();
    }
  });

  test("the proxy's session cookie after a password sign-in: HttpOnly, SameSite=Lax, host-only, and never readable by the page", async ({
    page,
    context,
    baseURL,
  }) => {
    const { dataDir } = await stackEnv();
    const person = await createStaffUser(
      baseURL!,
      proxyStorePath(dataDir),
      "staff",
    );
    await page.goto("/sign-in");
    await page.getByLabel("Email address").fill(person.email);
    await page.getByLabel("Password").fill(person.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(
      page.getByRole("heading", {
        level: 1,
        name: "Check a vehicle’s insurance",
      }),
    ).toBeVisible();

    const cookies = await context.cookies();
    // The session, and the device cookie that keeps this browser's sign-ins apart from a
    // stranger's guesses (docs/decisions/048-sign-in-lanes.md).
    expect(cookies.map((cookie) => cookie.name).sort()).toEqual([
      "vics_device",
      "vics_session",
    ]);
    const session = cookies.find((cookie) => cookie.name === "vics_session");
    const device = cookies.find((cookie) => cookie.name === "vics_device");
    expect(device).toMatchObject({
      httpOnly: true,
      sameSite: "Lax",
      path: "/",
    });
    const daysLeft = (device!.expires - Date.now() / 1000) / 86_400;
    expect(daysLeft).toBeGreaterThan(13.9);
    expect(daysLeft).toBeLessThanOrEqual(14);
    // On http the plain name, not Secure: the one choice every browser keeps on loopback.
    expect(session).toMatchObject({
      name: "vics_session",
      httpOnly: true,
      sameSite: "Lax",
      secure: false,
      path: "/",
      domain: new URL(baseURL!).hostname,
    });
    // The browser forgets it when the session's absolute limit ends it (12 hours by default).
    const hoursLeft = (session!.expires - Date.now() / 1000) / 3600;
    expect(hoursLeft).toBeGreaterThan(11.9);
    expect(hoursLeft).toBeLessThanOrEqual(12);
    // A 256-bit random id, base64url: 43 characters.
    expect(session!.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await page.evaluate(() => document.cookie)).toBe("");
  });
});
