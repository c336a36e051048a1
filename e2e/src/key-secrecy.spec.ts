// The proxy's API key must never reach a browser: not in any request or response the browser
// sees, not in its storage, not in any file of the built web app.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect, test } from "./fixtures.ts";
import { InsurancePage } from "./pages/insurance-page.ts";

function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

test("the key is in no browser traffic, storage or web/dist file", async ({
  page,
  proxyKey,
  traffic,
}) => {
  expect(proxyKey.length).toBeGreaterThanOrEqual(22);
  const insurance = new InsurancePage(page);
  await insurance.open();
  await insurance.check("AB12CDE");
  await expect(insurance.status).toHaveText("Insured");
  await insurance.check("ER19NFD");
  await expect(insurance.errorPanel).toContainText("No vehicle found");
  await page.goto("/compliance/AB12CDE");
  // The page makes its own request after it loads: wait for its answer before moving on.
  await expect(
    page.getByRole("heading", { level: 2, name: "Compliant" }),
  ).toBeVisible();
  await page.goto("/api/v1/openapi.json");
  await page.goto("/api/v1/not-a-route");

  // Every visit above is recorded (recording finishes asynchronously) before anything is judged.
  for (const path of [
    "/api/v1/vehicle/AB12CDE/insurance",
    "/api/v1/vehicle/ER19NFD/insurance",
    "/api/v1/compliance/AB12CDE",
    "/api/v1/openapi.json",
    "/api/v1/not-a-route",
  ])
    await expect
      .poll(() => traffic.some((e) => new URL(e.url).pathname === path), path)
      .toBe(true);
  const seen = JSON.stringify(traffic);
  expect(seen).toContain("AB12CDE");
  expect(seen).not.toContain(proxyKey);
  for (const exchange of traffic) {
    expect(Object.keys(exchange.requestHeaders)).not.toContain("x-api-key");
    expect(Object.keys(exchange.responseHeaders)).not.toContain("x-api-key");
  }

  const storage = await page.evaluate(
    () =>
      JSON.stringify({ ...localStorage, ...sessionStorage }) + document.cookie,
  );
  expect(storage).not.toContain(proxyKey);

  const dist = filesUnder(resolve(import.meta.dirname, "../../web/dist"));
  expect(dist.some((file) => file.endsWith("index.html"))).toBe(true);
  for (const file of dist)
    expect(readFileSync(file).includes(proxyKey), file).toBe(false);
});
