// The results table scrolled as a quick flick of a mouse wheel would, steadily for a few
// seconds, with every frame's time taken in the page by requestAnimationFrame. An idle spell
// first says what frame rate this headless browser gives a page that does nothing.
import type { Page } from "playwright-core";
import type { PageElement, PageScope } from "./page-scope.ts";

export interface FrameTimes {
  timestamps: number[];
  /** How far the table scrolled, in rows of 48 px. */
  scrolledPx: number;
}

/** rAF timestamps for `durationMs` while `pxPerSecond` scrolls the table (0: idle). */
export async function scrollFrames(
  page: Page,
  durationMs: number,
  pxPerSecond: number,
): Promise<FrameTimes> {
  const table = page.getByRole("region", { name: /^Showing / });
  await table.scrollIntoViewIfNeeded();
  return table.evaluate(
    (element, { durationMs, pxPerSecond }) => {
      const scope = globalThis as unknown as PageScope;
      const scroller = element as unknown as PageElement;
      const from = scroller.scrollTop;
      return new Promise<FrameTimes>((resolve) => {
        const timestamps: number[] = [];
        const frame = (time: number) => {
          const first = timestamps[0] ?? time;
          timestamps.push(time);
          if (pxPerSecond > 0)
            scroller.scrollTop = from + ((time - first) * pxPerSecond) / 1000;
          if (time - first < durationMs) scope.requestAnimationFrame(frame);
          else resolve({ timestamps, scrolledPx: scroller.scrollTop - from });
        };
        scope.requestAnimationFrame(frame);
      });
    },
    { durationMs, pxPerSecond },
  );
}
