// The proxy's edges (docs/reliability.md, section 3): the built app runs under the proxy's
// strict Content-Security-Policy with no violation on any page (the parse worker included), and
// every HTML document carries the CSP with frame-ancestors 'none', nosniff and a
// Referrer-Policy. A control proves the detector hears what the CSP blocks, so a run that hears
// nothing means there was nothing.
import type { Page, Response } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { CompliancePage } from "./pages/compliance-page.ts";
import { FleetPage } from "./pages/fleet-page.ts";
import { InsurancePage } from "./pages/insurance-page.ts";

interface CspWatch {
  /** `securitypolicyviolation` events, from every document the page has shown. */
  events: string[];
  /** Chromium's console reports of blocked content, from the pages and their workers. */
  console: string[];
  /** The URLs of the workers the pages started. */
  workers: string[];
}

/**
 * Listens before any of the app's code runs: the events are kept on the document's window (for
 * a look from the page) and handed to the test through a binding, which outlives navigations.
 */
async function watchCsp(page: Page): Promise<CspWatch> {
  const watch: CspWatch = { events: [], console: [], workers: [] };
  await page.exposeBinding("vicsReportCspViolation", (_source, text: string) =>
    watch.events.push(text),
  );
  await page.addInitScript(() => {
    const seen: string[] = [];
    Object.assign(window, { vicsCspViolations: seen });
    document.addEventListener("securitypolicyviolation", (event) => {
      const text = `${event.effectiveDirective} blocked ${event.blockedURI || "(inline)"} at ${event.sourceFile}:${event.lineNumber}`;
      seen.push(text);
      (
        window as unknown as { vicsReportCspViolation?: (t: string) => void }
      ).vicsReportCspViolation?.(text);
    });
  });
  const fromConsole = (text: string) => {
    if (text.includes("Content Security Policy")) watch.console.push(text);
  };
  page.on("console", (message) => fromConsole(message.text()));
  page.on("worker", (worker) => {
    watch.workers.push(worker.url());
    worker.on("console", (message) => fromConsole(message.text()));
  });
  return watch;
}

function expectSecurityHeaders(response: Response | null, what: string) {
  const headers = response?.headers() ?? {};
  expect(headers["content-type"], what).toMatch(/^text\/html/);
  const csp = headers["content-security-policy"] ?? "";
  expect(csp, `${what}: CSP`).toContain("frame-ancestors 'none'");
  expect(csp, `${what}: CSP`).toContain("script-src 'self'");
  expect(csp, `${what}: CSP`).toContain("default-src 'self'");
  expect(csp, `${what}: CSP`).not.toContain("unsafe-inline");
  expect(csp, `${what}: CSP`).not.toContain("unsafe-eval");
  expect(headers["x-content-type-options"], what).toBe("nosniff");
  expect(headers["referrer-policy"], what).toMatch(/\S/);
}

/**
 * Things the CSP must block on the page on show: an inline script, and an eval made by the
 * page's own code (a timer's callback: the test's evaluate call itself is exempt, as DevTools
 * evaluations are). Returns what the page saw, so the test can check neither ran.
 */
async function breakTheCsp(page: Page) {
  return page.evaluate(
    () =>
      new Promise<{ inlineRan: boolean; evalOutcome: string }>((resolve) => {
        const script = document.createElement("script");
        script.textContent = "window.vicsInlineScriptRan = true;";
        document.head.append(script);
        setTimeout(() => {
          let evalOutcome = "ran";
          try {
            eval("1 + 1");
          } catch (error) {
            evalOutcome = (error as Error).name;
          }
          resolve({ inlineRan: "vicsInlineScriptRan" in window, evalOutcome });
        }, 0);
      }),
  );
}

/** The control's own reports: made by evaluated code, so with no source file. */
const CONTROL_EVENT = /^script-src(-elem)? blocked (inline|eval) at :\d+$/;
const CONTROL_CONSOLE =
  /^Executing inline script violates .*Content Security Policy/;

/** Breaks the CSP on the page on show, and waits until the detector has heard it. */
async function expectControlHeard(page: Page, watch: CspWatch) {
  const outcome = await breakTheCsp(page);
  expect(outcome.inlineRan, "the inline script ran").toBe(false);
  expect(outcome.evalOutcome, "eval").toBe("EvalError");
  await expect
    .poll(() => watch.events.filter((text) => CONTROL_EVENT.test(text)))
    .toEqual([
      expect.stringMatching(/^script-src-elem blocked inline/),
      expect.stringMatching(/^script-src blocked eval/),
    ]);
  // Chromium reports the blocked inline script on the console too (a caught eval, only as an event).
  await expect
    .poll(() => watch.console.filter((text) => CONTROL_CONSOLE.test(text)))
    .toHaveLength(1);
}

/** What the app caused: `heard` without the control's reports (`count` of them at most). */
function appOnly(heard: string[], control: RegExp, count: number): string[] {
  let left = count;
  return heard.filter((text) => !(left > 0 && control.test(text) && left--));
}

test("the control: an inline script and an eval are blocked, and the detector hears both", async ({
  page,
}) => {
  const watch = await watchCsp(page);
  expectSecurityHeaders(await page.goto("/"), "/");
  await expect(
    page.getByRole("heading", { level: 1, name: /insurance/i }),
  ).toBeVisible();
  await expectControlHeard(page, watch);
  // Kept on the page's window as well.
  expect(
    await page.evaluate(
      () =>
        (window as unknown as { vicsCspViolations: string[] }).vicsCspViolations
          .length,
    ),
  ).toBeGreaterThanOrEqual(2);
});

test("every page of the app runs under the CSP with no violations", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const watch = await watchCsp(page);

  // The insurance check, and an answer.
  const insurance = new InsurancePage(page);
  expectSecurityHeaders(await page.goto("/"), "/");
  await insurance.check("AB12CDE");
  await expect(insurance.status).toHaveText("Insured");

  // A compliance result, opened at its own address.
  const compliance = new CompliancePage(page);
  expectSecurityHeaders(
    await page.goto("/compliance/AB12CDE"),
    "/compliance/AB12CDE",
  );
  await expect(compliance.verdict).toHaveText("Compliant");

  // A fleet run from a pasted list (parsed in the worker).
  const fleet = new FleetPage(page);
  expectSecurityHeaders(await page.goto("/fleet"), "/fleet");
  await fleet.paste("AB12CDE\nUN51NSD");
  await fleet.startButton.click();
  await expect(fleet.finished).toHaveText("Finished: 2 vehicles checked.");
  const pastedRun = page.url();

  // A fleet run from an uploaded file (parsed in the worker too).
  await page.goto("/fleet");
  await fleet.upload({
    name: "csp-fleet.csv",
    mimeType: "text/csv",
    buffer: Buffer.from("Fleet number,Registration\nF1,AB12CDE\nF2,LP08SED\n"),
  });
  await expect(fleet.reviewValue("Rows")).toHaveText("2");
  await fleet.startButton.click();
  await expect(fleet.finished).toHaveText("Finished: 2 vehicles checked.");
  expect(
    watch.workers.filter((url) => /parse-worker/.test(url)),
    "a parse worker for the paste and one for the file",
  ).toHaveLength(2);

  // A previous run, from the list of runs and at its own address.
  await page.goto("/fleet");
  await page.getByRole("link", { name: "csp-fleet.csv" }).click();
  await expect(page).toHaveURL(/\/fleet\/runs\/\w+$/);
  await expect(fleet.finished).toHaveText("Finished: 2 vehicles checked.");
  expectSecurityHeaders(await page.goto(pastedRun), "a previous run");
  await expect(fleet.finished).toHaveText("Finished: 2 vehicles checked.");

  // An address the app does not know.
  expectSecurityHeaders(await page.goto("/no-such-page"), "/no-such-page");
  await expect(
    page.getByRole("heading", { level: 1, name: "Page not found" }),
  ).toBeVisible();

  // The control, last: once its violations are heard, any the app caused have been heard too.
  await expectControlHeard(page, watch);
  expect(
    appOnly(watch.events, CONTROL_EVENT, 2),
    "the app's violations",
  ).toEqual([]);
  expect(
    appOnly(watch.console, CONTROL_CONSOLE, 1),
    "the app's CSP console reports",
  ).toEqual([]);
});
