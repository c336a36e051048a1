import { describe, expect, it } from "vitest";
import type { BundleSizes } from "./bundle-size.ts";
import type { FleetFile } from "./fleet-file.ts";
import type { InitialDownload } from "./received-bytes.ts";
import { webRows } from "./web-rows.ts";

const bundle: BundleSizes = {
  initial: [],
  lazy: [
    {
      file: "assets/fleet-abc.js",
      kind: "js",
      bytes: 200_000,
      gzipBytes: 61_440,
    },
    {
      file: "assets/fleet-def.css",
      kind: "css",
      bytes: 4_000,
      gzipBytes: 1_024,
    },
  ],
  initialJsGzip: 121_000,
  initialCssGzip: 3_789,
};

/** What the proxy sent: Brotli for the page and the script, the small stylesheet as it is. */
const received: InitialDownload = {
  files: [
    { path: "", kind: "html", status: 200, bytes: 700, encoding: "br" },
    {
      path: "assets/index-a1.js",
      kind: "js",
      status: 200,
      bytes: 99_840,
      encoding: "br",
    },
    {
      path: "assets/index-b2.css",
      kind: "css",
      status: 200,
      bytes: 3_789,
      encoding: "identity",
    },
  ],
  htmlBytes: 700,
  jsBytes: 99_840,
  cssBytes: 3_789,
};

const file: FleetFile = {
  csv: "",
  registrationColumn: 1,
  expected: { rows: 100_000, unique: 98_950, duplicates: 1_000, invalid: 50 },
  madeUp: 0,
};

describe("webRows", () => {
  it("gives every key, null where the browser could not measure, and says why", () => {
    const { figures, rows } = webRows({
      bundle,
      receivedProblem: "GET / answered 503",
      file,
      skipped: "no Chromium at /x",
    });
    expect(figures).toEqual({
      initial_js_received_kb: null,
      initial_css_received_kb: null,
      index_html_received_kb: null,
      initial_js_gzip_kb: 118.2,
      initial_css_gzip_kb: 3.7,
      lazy_js_gzip_kb: 60,
      csv100k_parse_s: null,
      fleet100k_browser_s: null,
      scroll_fps: null,
      browser_tab_heap_mb: null,
      browser_tab_rss_mb: null,
    });
    // No verdict on the first download without the bytes a browser receives.
    expect(rows[0]).toEqual({
      figure: "Initial JS as a browser receives it from the proxy",
      value: "n/a: GET / answered 503",
    });
    expect(rows.filter((row) => row.target)).toEqual([]);
    expect(rows.map((row) => row.figure)).toContain(
      "Loaded on demand: fleet-abc.js, gzip",
    );
    expect(rows.at(-1)?.value).toBe("n/a: no Chromium at /x");
  });

  it("rounds the browser's figures and holds them against their targets", () => {
    const { figures, rows } = webRows({
      bundle: { ...bundle, initialJsGzip: 130_000 },
      received,
      file: { ...file, madeUp: 48_940 },
      journey: {
        parseMs: 712.4,
        uploadToSummaryMs: 20_840,
        runMs: 19_500,
        finished: "Finished: 98,950 vehicles checked.",
        notChecked: "0",
      },
      idle: {
        frames: 61,
        fps: 60,
        longestFrameMs: 17,
        p95FrameMs: 17,
        longFrames: 0,
      },
      scroll: {
        frames: 170,
        fps: 56.52,
        longestFrameMs: 40.04,
        p95FrameMs: 20,
        longFrames: 0,
      },
      scrolledPx: 12_000,
      memory: { jsHeapUsedMb: 51.96, jsHeapTotalMb: 80, rendererRssMb: 285.24 },
    });
    expect(figures).toMatchObject({
      initial_js_received_kb: 97.5,
      initial_css_received_kb: 3.7,
      index_html_received_kb: 0.7,
      initial_js_gzip_kb: 127,
      csv100k_parse_s: 0.71,
      fleet100k_browser_s: 20.8,
      scroll_fps: 56.5,
      browser_tab_heap_mb: 52,
      browser_tab_rss_mb: 285.2,
    });
    const met = Object.fromEntries(
      rows.filter((row) => row.target).map((row) => [row.value, row.met]),
    );
    // The target holds the bytes received (Brotli), not the bench's own gzip of the build.
    expect(met).toEqual({ "97.5 kB": true, "0.71 s": true, "20.8 s": false });
    expect(rows[0]?.figure).toContain("sent as br, identity");
    expect(rows[1]?.value).toBe("3.7 kB and 0.7 kB");
    expect(
      rows.find((row) => row.figure.startsWith("Fleet check"))?.figure,
    ).toContain("48,940 of its plates made up");
    expect(rows.find((row) => row.figure.startsWith("Scrolling"))?.value).toBe(
      "56.5 fps (the page idle: 60 fps); slowest frame 40 ms, 0 over 50 ms; 250 rows passed",
    );
  });
});
