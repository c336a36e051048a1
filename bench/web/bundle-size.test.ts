import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { bundleSizes, initialAssetPaths, kb } from "./bundle-size.ts";

const VITE_HTML = `<!doctype html>
<html lang="en-GB">
  <head>
    <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/vendor-def.js">
    <link rel="stylesheet" crossorigin href="/assets/index-ghi.css">
    <link rel="preconnect" href="https://fonts.example">
    <script src="https://cdn.example/analytics.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>`;

describe("initialAssetPaths", () => {
  it("takes the entry script, modulepreloads and stylesheets, not icons, preconnects or other sites", () => {
    expect(initialAssetPaths(VITE_HTML)).toEqual([
      "assets/index-abc.js",
      "assets/vendor-def.js",
      "assets/index-ghi.css",
    ]);
  });

  it("reads relative paths and unquoted attributes", () => {
    expect(
      initialAssetPaths(
        `<script type=module src=./assets/a.js></script><link href='assets/b.css' rel='stylesheet'>`,
      ),
    ).toEqual(["assets/a.js", "assets/b.css"]);
  });
});

describe("bundleSizes", () => {
  let dist: string | undefined;
  afterEach(async () => {
    if (dist) await rm(dist, { recursive: true, force: true });
  });

  it("gzips every .js and .css file and splits them by whether index.html loads them", async () => {
    dist = await mkdtemp(join(tmpdir(), "bench-dist-"));
    await mkdir(join(dist, "assets"));
    const files: Record<string, string> = {
      "index.html": VITE_HTML,
      "assets/index-abc.js": "console.log('entry');".repeat(50),
      "assets/vendor-def.js": "export const vendor = 1;".repeat(20),
      "assets/index-ghi.css": "body { margin: 0 }".repeat(10),
      "assets/fleet-jkl.js": "export const fleet = 2;".repeat(30),
      "assets/fleet-mno.css": ".fleet { color: red }",
      "assets/logo.svg": "<svg/>",
      "favicon.svg": "<svg/>",
    };
    for (const [file, text] of Object.entries(files))
      await writeFile(join(dist, file), text);
    const gzip = (file: string) => gzipSync(files[file] ?? "").length;

    const sizes = await bundleSizes(dist);

    expect(sizes.initial.map((asset) => asset.file)).toEqual([
      "assets/index-abc.js",
      "assets/index-ghi.css",
      "assets/vendor-def.js",
    ]);
    expect(sizes.lazy.map((asset) => [asset.file, asset.kind])).toEqual([
      ["assets/fleet-jkl.js", "js"],
      ["assets/fleet-mno.css", "css"],
    ]);
    expect(sizes.initialJsGzip).toBe(
      gzip("assets/index-abc.js") + gzip("assets/vendor-def.js"),
    );
    expect(sizes.initialCssGzip).toBe(gzip("assets/index-ghi.css"));
    expect(sizes.lazy[0]).toMatchObject({
      bytes: files["assets/fleet-jkl.js"]?.length,
      gzipBytes: gzip("assets/fleet-jkl.js"),
    });
  });
});

describe("kb", () => {
  it("is kilobytes of 1,024 bytes, to one place", () => {
    expect(kb(122_880)).toBe(120);
    expect(kb(1100)).toBe(1.1);
  });
});
