// The built web app's weight as a first visit pays it: gzip sizes of what index.html loads
// before the app can run (its script, stylesheets and modulepreloads) and of every chunk that
// loads later, on demand (the fleet check, its parse worker).
import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { gzipSync } from "node:zlib";

export interface Asset {
  /** Path inside dist, e.g. "assets/index-abc.js". */
  file: string;
  kind: "js" | "css";
  bytes: number;
  gzipBytes: number;
}

export interface BundleSizes {
  initial: Asset[];
  lazy: Asset[];
  initialJsGzip: number;
  initialCssGzip: number;
}

/** The asset paths index.html loads up front: module scripts, stylesheets, modulepreloads. */
export function initialAssetPaths(html: string): string[] {
  const paths: string[] = [];
  for (const tag of html.match(/<(?:script|link)\b[^>]*>/gi) ?? []) {
    const isScript = /^<script/i.test(tag);
    const rel = /\brel\s*=\s*["']?([^"'\s>]+)/i.exec(tag)?.[1]?.toLowerCase();
    if (!isScript && rel !== "stylesheet" && rel !== "modulepreload") continue;
    const url = /\b(?:src|href)\s*=\s*["']?([^"'\s>]+)/i.exec(tag)?.[1];
    if (!url || /^[a-z]+:\/\//i.test(url)) continue;
    paths.push(url.replace(/^\.?\//, ""));
  }
  return paths;
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

/** Sizes of every .js and .css file in `distDir`, split by whether index.html loads it. */
export async function bundleSizes(distDir: string): Promise<BundleSizes> {
  const html = await readFile(join(distDir, "index.html"), "utf8");
  const initialPaths = new Set(initialAssetPaths(html));
  const initial: Asset[] = [];
  const lazy: Asset[] = [];
  for (const file of (await listFiles(distDir)).sort()) {
    const kind = file.endsWith(".js")
      ? "js"
      : file.endsWith(".css")
        ? "css"
        : undefined;
    if (!kind) continue;
    const content = await readFile(join(distDir, file));
    const asset = {
      file,
      kind,
      bytes: content.length,
      gzipBytes: gzipSync(content).length,
    } satisfies Asset;
    (initialPaths.has(file) ? initial : lazy).push(asset);
  }
  const total = (kind: Asset["kind"]) =>
    initial
      .filter((asset) => asset.kind === kind)
      .reduce((sum, asset) => sum + asset.gzipBytes, 0);
  return {
    initial,
    lazy,
    initialJsGzip: total("js"),
    initialCssGzip: total("css"),
  };
}

/** Kilobytes (1,024 bytes) to one decimal place. */
export function kb(bytes: number): number {
  return Math.round((bytes / 1024) * 10) / 10;
}
