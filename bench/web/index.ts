// The web app's figures for `npm run bench` ("Web figures" in docs/performance.md): the weight
// of the built app and the bytes a first visit receives from the proxy, and a 100,000-row fleet check in Chromium (how long the list takes to read, how
// long the run takes, how smoothly its results scroll, what the tab holds in memory).
import { resolve } from "node:path";
import type { Browser } from "playwright-core";
import { bundleSizes } from "./bundle-size.ts";
import { launchChromium } from "./chromium.ts";
import { initialDownload } from "./received-bytes.ts";
import { fleetFile, type FleetFile } from "./fleet-file.ts";
import { fleetJourney } from "./fleet-journey.ts";
import { frameRate } from "./frame-rate.ts";
import { scrollFrames } from "./table-scroll.ts";
import { tabMemory } from "./tab-memory.ts";
import { webRows, type WebParts, type WebRow } from "./web-rows.ts";

export interface WebFigureOptions {
  /** A running proxy serving the built app (web/dist), ending with "/". */
  proxyUrl: string;
  /** A signed-in fleet user's Cookie header on that proxy ("name=value"): the tab carries it. */
  cookie: string;
  /** 100,000 registrations of the stack's fleet: the list is drawn from them. */
  fleet: readonly string[];
  /** Shorter scrolling and tighter time limits; the same 100,000-row run. */
  quick: boolean;
}

export interface WebFigures {
  figures: Record<string, number | null>;
  rows: WebRow[];
}

const DIST = resolve(import.meta.dirname, "../../web/dist");
const FLEET_ROWS = 100_000;
/** 4,000 px/s: about 80 rows of 48 px a second, a brisk flick through the list. */
const SCROLL_PX_PER_SECOND = 4000;

/** "name=value" as Playwright's cookie for `url`, as the proxy set it (httpOnly, Lax). */
export function sessionCookie(header: string, url: string) {
  const at = header.indexOf("=");
  return {
    name: header.slice(0, at),
    value: header.slice(at + 1),
    url,
    httpOnly: true,
    sameSite: "Lax" as const,
  };
}

const firstLine = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "";

export async function webFigures(
  options: WebFigureOptions,
): Promise<WebFigures> {
  const bundle = await bundleSizes(DIST);
  // The same files, as the proxy sends them to a browser that takes Brotli and gzip.
  const download = await initialDownload(
    options.proxyUrl,
    bundle.initial.map((asset) => asset.file),
  ).then(
    (received) => ({ received }),
    (error: unknown) => ({ receivedProblem: firstLine(error) }),
  );
  const file = fleetFile(options.fleet, FLEET_ROWS);
  const browser = await launchChromium();
  if (typeof browser === "string")
    return webRows({ bundle, ...download, file, skipped: browser });
  try {
    return webRows({
      bundle,
      ...download,
      file,
      ...(await inBrowser(browser, file, options)),
    });
  } finally {
    await browser.close();
  }
}

/** The journey, then scrolling and memory on the finished run; each says why when it fails. */
async function inBrowser(
  browser: Browser,
  file: FleetFile,
  options: WebFigureOptions,
): Promise<Omit<WebParts, "bundle" | "received" | "file">> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
  });
  await context.addCookies([sessionCookie(options.cookie, options.proxyUrl)]);
  const page = await context.newPage();
  const parts: Omit<WebParts, "bundle" | "received" | "file"> = {};
  try {
    parts.journey = await fleetJourney(
      page,
      options.proxyUrl,
      file,
      options.quick ? 60_000 : 180_000,
    );
  } catch (error) {
    await context.close();
    return { skipped: `the fleet check failed: ${firstLine(error)}` };
  }
  try {
    parts.idle = frameRate((await scrollFrames(page, 1000, 0)).timestamps);
    const scrolled = await scrollFrames(
      page,
      options.quick ? 2000 : 3000,
      SCROLL_PX_PER_SECOND,
    );
    parts.scroll = frameRate(scrolled.timestamps);
    parts.scrolledPx = scrolled.scrolledPx;
  } catch (error) {
    parts.scrollProblem = firstLine(error);
  }
  try {
    parts.memory = await tabMemory(browser, page);
  } catch (error) {
    parts.memoryProblem = firstLine(error);
  }
  await context.close();
  return parts;
}
