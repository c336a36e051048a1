// The web figures as bench/run.ts prints and saves them: the flat numbers for latest.json and
// the table's rows, with the bench's targets beside the figures that have one.
import { kb, type BundleSizes } from "./bundle-size.ts";
import type { FleetFile } from "./fleet-file.ts";
import type { JourneyTimes } from "./fleet-journey.ts";
import type { FrameRate } from "./frame-rate.ts";
import {
  BROWSER_ACCEPT_ENCODING,
  encodingsUsed,
  type InitialDownload,
} from "./received-bytes.ts";
import type { TabMemory } from "./tab-memory.ts";

export interface WebRow {
  figure: string;
  value: string;
  target?: string;
  met?: boolean;
}

export interface WebParts {
  bundle: BundleSizes;
  /** What the proxy sent a browser's first visit (received-bytes.ts). */
  received?: InitialDownload;
  /** Why `received` could not be measured. */
  receivedProblem?: string;
  file: FleetFile;
  journey?: JourneyTimes;
  /** Frames of the finished run's page doing nothing: the browser's own ceiling. */
  idle?: FrameRate;
  scroll?: FrameRate;
  scrolledPx?: number;
  memory?: TabMemory;
  /** Why there are no browser figures at all. */
  skipped?: string;
  scrollProblem?: string;
  memoryProblem?: string;
}

export const TARGETS = { initialJsKb: 120, csvParseS: 1.5, fleetBrowserS: 20 };

const ROW_PX = 48;

function round(value: number, places = 1): number {
  const scale = 10 ** places;
  return Math.round(value * scale) / scale;
}

function orNull(value: number | undefined, places = 1): number | null {
  return value === undefined || !Number.isFinite(value)
    ? null
    : round(value, places);
}

const count = (value: number) => value.toLocaleString("en-GB");

export function webRows(parts: WebParts): {
  figures: Record<string, number | null>;
  rows: WebRow[];
} {
  const { bundle, received, file, journey, idle, scroll, memory } = parts;
  const initialJs = kb(bundle.initialJsGzip);
  const receivedJs = received && kb(received.jsBytes);
  const lazyJs = bundle.lazy.filter((asset) => asset.kind === "js");
  const parseS = journey && journey.parseMs / 1000;
  const runS = journey && journey.uploadToSummaryMs / 1000;
  const figures: Record<string, number | null> = {
    initial_js_received_kb: receivedJs ?? null,
    initial_css_received_kb: received ? kb(received.cssBytes) : null,
    index_html_received_kb: received ? kb(received.htmlBytes) : null,
    initial_js_gzip_kb: initialJs,
    initial_css_gzip_kb: kb(bundle.initialCssGzip),
    lazy_js_gzip_kb: kb(
      lazyJs.reduce((sum, asset) => sum + asset.gzipBytes, 0),
    ),
    csv100k_parse_s: orNull(parseS, 2),
    fleet100k_browser_s: orNull(runS),
    scroll_fps: orNull(scroll?.fps),
    browser_tab_heap_mb: orNull(memory?.jsHeapUsedMb),
    browser_tab_rss_mb: orNull(memory?.rendererRssMb),
  };

  const asked = `Accept-Encoding: ${BROWSER_ACCEPT_ENCODING}`;
  const rows: WebRow[] = [
    received && receivedJs !== undefined
      ? {
          figure: `Initial JS as a browser receives it from the proxy (what index.html loads before the app runs; ${asked}; sent as ${encodingsUsed(received)})`,
          value: `${receivedJs} kB`,
          target: `≤ ${TARGETS.initialJsKb} kB`,
          met: receivedJs <= TARGETS.initialJsKb,
        }
      : {
          figure: "Initial JS as a browser receives it from the proxy",
          value: `n/a: ${parts.receivedProblem ?? "not measured"}`,
        },
    {
      figure: "Initial CSS and index.html as a browser receives them",
      value: received
        ? `${kb(received.cssBytes)} kB and ${kb(received.htmlBytes)} kB`
        : "n/a",
    },
    {
      figure: "Initial JS, the built files gzipped by the bench (level 6)",
      value: `${initialJs} kB`,
    },
    { figure: "Initial CSS, gzip", value: `${kb(bundle.initialCssGzip)} kB` },
    ...bundle.lazy.map((asset) => ({
      figure: `Loaded on demand: ${asset.file.replace(/^assets\//, "")}, gzip`,
      value: `${kb(asset.gzipBytes)} kB`,
    })),
  ];
  const list = `${count(file.expected.rows)}-row CSV`;
  if (!journey) {
    const why = `n/a: ${parts.skipped ?? "not measured"}`;
    rows.push(
      { figure: `Read and validate a ${list} in Chromium`, value: why },
      { figure: `Fleet check of a ${list} in Chromium`, value: why },
    );
    return { figures, rows };
  }
  const madeUp =
    file.madeUp > 0
      ? ` (${count(file.madeUp)} of its plates made up, "not found": the database held too few)`
      : "";
  rows.push(
    {
      figure: `Read and validate a ${list} in Chromium (file chosen to the review's counts, worker start included)`,
      value: `${round(journey.parseMs / 1000, 2)} s`,
      target: `≤ ${TARGETS.csvParseS} s`,
      met: journey.parseMs / 1000 <= TARGETS.csvParseS,
    },
    {
      figure: `Fleet check of a ${list} in Chromium, upload to final summary${madeUp}`,
      value: `${round(journey.uploadToSummaryMs / 1000)} s`,
      target: `≤ ${TARGETS.fleetBrowserS} s`,
      met: journey.uploadToSummaryMs / 1000 <= TARGETS.fleetBrowserS,
    },
    {
      figure: "… of which the run (Check to final summary)",
      value: `${round(journey.runMs / 1000)} s: "${journey.finished}" Not checked: ${journey.notChecked}`,
    },
    {
      figure: `Scrolling the ${count(file.expected.rows)}-row results table`,
      value: scroll
        ? `${round(scroll.fps)} fps (the page idle: ${idle ? round(idle.fps) : "?"} fps); ` +
          `slowest frame ${round(scroll.longestFrameMs)} ms, ${scroll.longFrames} over 50 ms; ` +
          `${count(Math.round((parts.scrolledPx ?? 0) / ROW_PX))} rows passed`
        : `n/a: ${parts.scrollProblem ?? "no frames"}`,
    },
    {
      figure:
        "Browser tab holding the finished run: JS heap after GC / renderer RSS",
      value: memory
        ? `${round(memory.jsHeapUsedMb)} MB / ${memory.rendererRssMb === undefined ? "n/a" : `${round(memory.rendererRssMb)} MB`}`
        : `n/a: ${parts.memoryProblem ?? "not measured"}`,
    },
  );
  return { figures, rows };
}
