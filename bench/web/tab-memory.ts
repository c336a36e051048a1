// What the tab holding a finished run costs in memory: its JavaScript heap after a full
// garbage collection (from the DevTools protocol), and its renderer process's resident set (from
// /proc), which adds the DOM, layout, and the engine's own overheads.
import type { Browser, Page } from "playwright-core";
import { rssMb } from "../../scripts/load/rss.ts";

export interface TabMemory {
  jsHeapUsedMb: number;
  jsHeapTotalMb: number;
  /** The tab's renderer process (the largest renderer, should there be several); undefined off Linux. */
  rendererRssMb?: number;
}

const MB = 1024 * 1024;

interface ProcessInfo {
  type: string;
  id: number;
}

export async function tabMemory(
  browser: Browser,
  page: Page,
): Promise<TabMemory> {
  const session = await page.context().newCDPSession(page);
  try {
    await session.send("HeapProfiler.enable");
    await session.send("HeapProfiler.collectGarbage");
    await session.send("Performance.enable");
    const { metrics } = await session.send("Performance.getMetrics");
    const metric = (name: string) =>
      metrics.find((entry) => entry.name === name)?.value ?? NaN;
    const browserSession = await browser.newBrowserCDPSession();
    let rendererRssMb: number | undefined;
    try {
      const { processInfo } = (await browserSession.send(
        "SystemInfo.getProcessInfo",
      )) as {
        processInfo: ProcessInfo[];
      };
      for (const { type, id } of processInfo) {
        if (type !== "renderer") continue;
        const mb = rssMb(id);
        if (
          mb !== undefined &&
          (rendererRssMb === undefined || mb > rendererRssMb)
        )
          rendererRssMb = mb;
      }
    } finally {
      await browserSession.detach();
    }
    return {
      jsHeapUsedMb: metric("JSHeapUsedSize") / MB,
      jsHeapTotalMb: metric("JSHeapTotalSize") / MB,
      rendererRssMb,
    };
  } finally {
    await session.detach();
  }
}
