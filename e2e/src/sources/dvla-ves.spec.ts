// The DVLA register in the browser (issue 35): a vehicle only the register knows is checked from
// its answer, said to come from DVLA and when; a revoked key shows on the admin's Sources page in
// the service's words. Over a stack of its own with the VES stand-in (sources-stack.ts).
import { addDays, utcDate } from "@vics/shared";
import { CompliancePage } from "../pages/compliance-page.ts";
import { expect, test } from "./sources-fixtures.ts";

const LETTERS = "ABCDEFGHJKLMNPRSTUVWXY";

/** A plate no seeded vehicle has (the seed never issues Q), new to the stack every time. */
function newPlate(): string {
  const letter = () => LETTERS[Math.floor(Math.random() * LETTERS.length)];
  return `ZQ69${letter()}${letter()}${letter()}`;
}

/** A single check's access line: its route, and the registration as a keyed hash. */
const CHECK_LINE =
  /"route":"[^"]*\/v1\/compliance\/:registration","registration":"[0-9a-f]{12}"/;

/** YYYY-MM-DD, `days` from today (UTC), as the register sends dates. */
function daysFromToday(days: number): string {
  return addDays(utcDate(new Date()), days);
}

/** "1 June 2027", as the dashboard writes a date. */
function inWords(isoDate: string): string {
  return new Date(`${isoDate}T12:00:00Z`).toLocaleDateString("en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
}

test.describe("a staff check", () => {
  test.use({ signedInAs: "staff" });

  test("of a vehicle only DVLA knows shows its road tax and MOT from DVLA, and when DVLA said so", async ({
    page,
    sources,
  }) => {
    const plate = newPlate();
    const taxDue = daysFromToday(150);
    const motExpires = daysFromToday(200);
    await sources.ves.putVehicle({
      registrationNumber: plate,
      taxStatus: "Taxed",
      taxDueDate: taxDue,
      motStatus: "Valid",
      motExpiryDate: motExpires,
      make: "VAUXHALL",
      colour: "SILVER",
      // Old enough to need an MOT: a newer car's is "not yet due", whatever DVLA says.
      yearOfManufacture: 2019,
      monthOfFirstRegistration: "2019-09",
    });

    const compliance = new CompliancePage(page);
    await compliance.open();
    await compliance.check(plate);

    await expect(page).toHaveURL(new RegExp(`/compliance/${plate}$`));
    await expect(compliance.verdictBanner).toContainText(/vauxhall/i);
    await expect(compliance.badge("Road tax")).toContainText(
      `Taxed until ${inWords(taxDue)}`,
    );
    await expect(compliance.badge("MOT")).toContainText(
      `MOT valid until ${inWords(motExpires)}`,
    );
    // The register asked just now: "Road tax: DVLA, as of 10:02 today".
    await expect(
      page.getByRole("paragraph").filter({
        hasText: /^Road tax: DVLA, as of \d{2}:\d{2} today$/,
      }),
    ).toBeVisible();
    await expect(
      page.getByRole("paragraph").filter({
        hasText: /^MOT: DVLA, as of \d{2}:\d{2} today$/,
      }),
    ).toBeVisible();
    // The check was logged, as keyed hashes: neither the plate nor DVLA's key in the clear.
    await expect.poll(() => sources.log("service")).toMatch(CHECK_LINE);
    await expect.poll(() => sources.log("proxy")).toMatch(CHECK_LINE);
    const logs = sources.logs();
    expect(logs).not.toContain(plate);
    expect(logs).not.toContain(sources.vesKey);
  });
});

test.describe("the admin's Sources page", () => {
  test.use({ signedInAs: "admin" });

  test("shows DVLA's credentials refused, in the service's words, once the key is revoked", async ({
    page,
    sources,
  }) => {
    const sourcesPage = "/admin/sources";
    const dvla = page.getByRole("row", {
      name: /DVLA Vehicle Enquiry Service/,
    });
    await page.goto(sourcesPage);
    await expect(dvla).toContainText(`On: calls ${sources.ves.url}`);
    await expect(dvla).not.toContainText("Credentials refused");

    await sources.ves.setApiKey("a-key-the-service-does-not-hold");
    // A vehicle VICS has never seen: the service must ask DVLA, which now refuses its key.
    const plate = newPlate();
    const compliance = new CompliancePage(page);
    await compliance.open(plate);
    // The service's own words (SOURCE_UNAVAILABLE): which register, and why.
    await expect(compliance.errorPanel).toContainText(
      "The register could not be asked",
    );
    await expect(compliance.errorPanel).toContainText(
      "DVLA could not be asked just now: it refused VICS's credentials.",
    );
    await expect(compliance.errorPanel).not.toContainText("restarts");
    await expect(compliance.verdict).toBeHidden();

    // The page asks again every 30 seconds; a reload asks at once.
    await page.goto(sourcesPage);
    await expect(async () => {
      await page.reload();
      await expect(dvla).toContainText("Credentials refused", {
        timeout: 2000,
      });
    }).toPass();
    await expect(dvla).toContainText(
      `The key is wrong or revoked: check that DVLA_VES_API_KEY_FILE holds the key DVLA issued for this environment (${sources.ves.url}).`,
    );
    // Its words name the key's file, never the key, on the page and in the logs; nor the plate.
    expect(await page.content()).not.toContain(sources.vesKey);
    await expect
      .poll(() => sources.log("service"))
      .toContain("source: look-up failed");
    await expect.poll(() => sources.log("proxy")).toMatch(CHECK_LINE);
    const logs = sources.logs();
    expect(logs).not.toContain(sources.vesKey);
    expect(logs).not.toContain(plate);
  });
});
