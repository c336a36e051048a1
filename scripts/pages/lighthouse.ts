// One Lighthouse run (performance and accessibility, desktop preset) of a page of the app in a
// headless Chromium of its own, signed in by the session's Cookie header on every request.
import * as chromeLauncher from "chrome-launcher";
import lighthouse, { desktopConfig } from "lighthouse";
import type { LighthouseReport } from "./figures.ts";

/** Debian's Chromium, as the e2e suite drives it; CHROME_PATH overrides it. */
export const chromePath = (env: NodeJS.ProcessEnv): string =>
  env["CHROME_PATH"] || env["CHROMIUM_PATH"] || "/usr/bin/chromium";

export async function lighthouseReport(
  url: string,
  options: { cookie: string; chromePath: string },
): Promise<LighthouseReport> {
  const chrome = await chromeLauncher.launch({
    chromePath: options.chromePath,
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu"],
  });
  try {
    const result = await lighthouse(
      url,
      {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: ["performance", "accessibility"],
        // Every request of the page carries the session, as a signed-in browser's would.
        extraHeaders: { Cookie: options.cookie },
      },
      desktopConfig,
    );
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    const report = result.lhr as unknown as LighthouseReport;
    if (report.runtimeError)
      throw new Error(
        `Lighthouse could not load ${url}: ${report.runtimeError.code} ${report.runtimeError.message}`,
      );
    return report;
  } finally {
    chrome.kill();
  }
}
