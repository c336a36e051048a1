// Real data and the incident question, over the whole stack: an operator's import shows on the
// admins' data page with its counts and its refused rows to download; a member of staff asks
// whether a vehicle was insured on a past day and prints the record of the answer.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { addDays, ukDate } from "@vics/shared";
import { axeViolations } from "../axe.ts";
import { expect, test } from "../fixtures.ts";
import { DataPage } from "../pages/data-page.ts";
import { InsurancePage } from "../pages/insurance-page.ts";
import { lp08sedLapsedDaysAgo } from "../seeded-days.ts";
import { stackEnv } from "../stack-env.ts";

const REPO_ROOT = join(import.meta.dirname, "../../..");
/** A plate no other journey or the synthetic fleet uses: age identifier 99 is 2049's. */
const uniquePlate = () =>
  `IM99${Array.from(randomBytes(3), (byte) => "ABCDEFGHJKLMNPRSTUVWXY"[byte % 22]).join("")}`;

/** `scripts/import` on the stack's database, as an operator runs it; its stdout. */
async function importInto(...args: string[]): Promise<string> {
  const { dataDir } = await stackEnv();
  const { stdout } = await promisify(execFile)(
    join(REPO_ROOT, "scripts/import"),
    [...args, "--over-synthetic", "--by", "e2e-operator"],
    {
      env: {
        PATH: process.env.PATH ?? "",
        DATABASE_PATH: join(dataDir, "vics.sqlite"),
      },
    },
  );
  return stdout;
}

/** "YYYY-MM-DD" `days` before today in the UK. */
function ukDaysAgo(days: number): string {
  return addDays(ukDate(new Date()), -days);
}

test("an admin sees an import's counts on the data page and downloads its refused rows", async ({
  page,
}) => {
  const { dataDir } = await stackEnv();
  const fileName = `vehicles-${randomBytes(4).toString("hex")}.csv`;
  const path = join(dataDir, fileName);
  writeFileSync(
    path,
    [
      "registration,make,model,year,colour,first_registered",
      `${uniquePlate()},Ford,Focus,2019,Blue,2019-03-01`,
      `${uniquePlate()},Kia,Niro,2022,White,2022-06-10`,
      "not a plate,Ford,Focus,2019,Blue,2019-03-01",
    ].join("\n") + "\n",
  );
  const report = await importInto("vehicles", path);
  expect(report).toContain(
    "3 rows read: 2 added, 0 changed, 0 unchanged, 0 removed, 1 refused.",
  );

  const data = new DataPage(page);
  await data.open();
  await expect(data.sources).toBeVisible();
  const row = data.importOf(fileName);
  await expect(row).toContainText("Applied");
  await expect(row).toContainText(
    "3 rows: 2 added, 0 changed, 0 unchanged, 0 removed, 1 refused",
  );
  await expect(row).toContainText("e2e-operator");

  const downloading = page.waitForEvent("download");
  await row.getByRole("button", { name: "Download refused rows" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^import-\d+-rejects\.csv$/);
  const csv = readFileSync(await download.path(), "utf8");
  expect(csv.split("\r\n")[0]).toBe("\uFEFFLine,Column,Value,Reason");
  expect(csv).toContain("4,registration,not a plate,");

  expect(await axeViolations(page)).toEqual([]);
});

test.describe("a member of staff", () => {
  test.use({ signedInAs: "staff" });

  test("checks a vehicle on a past date and prints the record of the answer", async ({
    page,
  }) => {
    // LP08SED's cover ended some days ago: five days before that, it was insured.
    const day = ukDaysAgo((await lp08sedLapsedDaysAgo()) + 5);
    const insurance = new InsurancePage(page);
    await page.goto("/vehicle/LP08SED");
    await expect(insurance.status).toHaveText("Not insured");

    await page.getByText("Check on a date").click();
    await page.getByLabel(/^Date, for example/).fill(day);
    await page.getByRole("button", { name: "Check on this date" }).click();
    await expect(page).toHaveURL(new RegExp(`/vehicle/LP08SED\\?date=${day}$`));
    const heading = page.getByRole("heading", {
      level: 2,
      name: /^Insured on /,
    });
    await expect(heading).toBeVisible();
    await expect(heading).toBeFocused();

    const record = page.locator("section.check-record");
    const row = (label: string) =>
      record
        .locator("dt", { hasText: label })
        .locator("xpath=following-sibling::dd[1]");
    await expect(row("Vehicle")).toContainText("LP08 SED");
    await expect(row("Answer")).toHaveText(/^Insured on /);
    await expect(row("Insurance data as of")).not.toHaveText("Not known");
    await expect(row("Reference")).toHaveText(/^[0-9a-f-]{36}$/);

    expect(await axeViolations(page)).toEqual([]);

    await page.evaluate(() => {
      const counted = window as unknown as { printed: number };
      counted.printed = 0;
      window.print = () => {
        counted.printed++;
      };
    });
    await record.getByRole("button", { name: "Print this record" }).click();
    expect(
      await page.evaluate(
        () => (window as unknown as { printed: number }).printed,
      ),
    ).toBe(1);
    // On paper: the record and the answer, without the navigation or the buttons.
    await page.emulateMedia({ media: "print" });
    await expect(record).toBeVisible();
    await expect(heading).toBeVisible();
    await expect(
      record.getByRole("button", { name: "Print this record" }),
    ).toBeHidden();
    await expect(page.getByRole("navigation").first()).toBeHidden();
    // It names who checked, when, and when it was printed; the header's name is black on white.
    const head = page.locator(".result .printed-by");
    await expect(head).toBeVisible();
    await expect(head).toContainText(/Checked by\s*E2E staff/);
    await expect(head).toContainText(/Printed on\s*\d+ \w+ \d{4} at \d\d:\d\d/);
    const name = page.getByRole("link", { name: "E2E staff" });
    await expect(name).toBeVisible();
    await expect(name).toHaveCSS("color", "rgb(0, 0, 0)");
    await page.emulateMedia({ media: "screen" });
    await expect(head).toBeHidden();
  });
});
