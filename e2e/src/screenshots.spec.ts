// Screenshots of the dashboard at desktop and phone widths, kept as test artifacts for a person
// to look at (not compared pixel by pixel), and the printed record as a one-page PDF.
import { writeFileSync } from "node:fs";
import { expect, test } from "./fixtures.ts";
import { CompliancePage } from "./pages/compliance-page.ts";

const sizes = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 360, height: 740 },
];

for (const size of sizes) {
  test(`compliance dashboard at ${size.name} width (${size.width} px)`, async ({
    page,
  }, testInfo) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    const compliance = new CompliancePage(page);
    await compliance.open("FN19OUT");
    await expect(compliance.verdict).toHaveText("Not compliant");
    await expect(compliance.verdictBanner).toContainText("Skoda");
    // Nothing overflows sideways: a phone user never scrolls left and right.
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    const path = testInfo.outputPath(`compliance-${size.name}.png`);
    await page.screenshot({ path, fullPage: true });
    await testInfo.attach(`compliance-${size.name}`, {
      path,
      contentType: "image/png",
    });
  });
}

test("printing gives a one-page record with no navigation", async ({
  page,
}, testInfo) => {
  const compliance = new CompliancePage(page);
  await compliance.open("BD19ALL");
  await expect(compliance.verdict).toHaveText("Not compliant");
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("navigation").first()).toBeHidden();
  await expect(compliance.checkAgainButton).toBeHidden();
  await expect(compliance.checks).toBeVisible();
  await expect(compliance.checkedAt).toBeVisible();
  // The record names the vehicle: its plate, make, model and colour.
  await expect(compliance.verdictBanner).toBeVisible();
  await expect(compliance.verdictBanner).toContainText(
    /BD19 ALL.*BMW.*3 Series.*Purple/s,
  );

  const pdf = await page.pdf({ format: "A4", printBackground: true });
  const path = testInfo.outputPath("compliance-print.pdf");
  writeFileSync(path, pdf);
  await testInfo.attach("compliance-print", {
    path,
    contentType: "application/pdf",
  });
  const pages = pdf.toString("latin1").match(/\/Type\s*\/Page(?!s)/g) ?? [];
  expect(pages.length, path).toBe(1);
});
