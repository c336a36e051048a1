// Debian's Chromium, headless, as the e2e journeys launch it (never a browser Playwright
// downloads): CHROMIUM_PATH points elsewhere where a machine keeps it elsewhere.
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

const ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

/** The browser, or a sentence saying why there is none (the web figures are then null). */
export async function launchChromium(): Promise<Browser | string> {
  // The bench's one environment setting of its own; it is read nowhere else.
  const executablePath = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
  if (!existsSync(executablePath))
    return `no Chromium at ${executablePath} (apt-get install chromium, or set CHROMIUM_PATH)`;
  try {
    return await chromium.launch({
      executablePath,
      headless: true,
      args: ARGS,
    });
  } catch (error) {
    return `Chromium did not start: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`;
  }
}
