// ER19THR answers 429 in sandbox mode, with headers as for a real 429. The browser's clock is
// installed so the countdown (up to a minute) can be run on without the test waiting for it.
import { expect, test } from "./fixtures.ts";

const THROTTLED = "/api/v1/vehicle/ER19THR/insurance";

function secondsIn(text: string | null): number {
  const match = /Trying again in (\d+) seconds?/.exec(text ?? "");
  if (!match?.[1]) throw new Error(`no countdown in ${JSON.stringify(text)}`);
  return Number(match[1]);
}

test("rate limited: the seconds count down, then the check is made again by itself", async ({
  page,
}) => {
  const attempts: number[] = [];
  page.on("response", (response) => {
    if (response.url().endsWith(THROTTLED)) attempts.push(response.status());
  });
  await page.clock.install();
  await page.goto("/vehicle/ER19THR");

  await expect(
    page.getByRole("heading", { name: "Too many checks" }),
  ).toBeVisible();
  const timer = page.getByRole("timer");
  const start = secondsIn(await timer.textContent());
  expect(start).toBeGreaterThanOrEqual(1);
  expect(start).toBeLessThanOrEqual(60);
  await expect.poll(() => attempts).toEqual([429]);

  // The count goes down second by second. (Near the end of the key's window the automatic
  // retry fires within a second or two and starts a new countdown, so skip this part there.)
  if (start > 5) {
    await page.clock.runFor(2000);
    await expect
      .poll(async () => secondsIn(await timer.textContent()))
      .toBeLessThan(start);
  }
  await page.clock.runFor((start + 1) * 1000);
  await expect.poll(() => attempts.length).toBe(2);
  expect(attempts).toEqual([429, 429]);
});

test("rate limited: the automatic retry can be cancelled, leaving Try again", async ({
  page,
}) => {
  await page.clock.install();
  await page.goto("/vehicle/ER19THR");
  await expect(page.getByRole("timer")).toContainText("Trying again in");
  await page.getByRole("button", { name: "Cancel automatic retry" }).click();
  await expect(page.getByText("Automatic retry cancelled.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Try again" })).toBeVisible();
});
