import { existsSync, realpathSync, statSync } from "node:fs";
import { readFile, realpath, stat } from "node:fs/promises";
import { join, sep } from "node:path";
import type { Context, Hono, MiddlewareHandler } from "hono";
import { getMimeType } from "hono/utils/mime";
import type { AppEnv } from "../http/app-env.ts";
import { decodedPath, namesDotfile } from "../edges/path-spellings.ts";
import {
  BUILT_ENCODINGS,
  type BuiltEncoding,
  chooseEncoding,
} from "./accept-encoding.ts";

// Vite puts content-hashed files under /assets/, so they never change under one name.
const IMMUTABLE = "public, max-age=31536000, immutable";

const NOT_BUILT_PAGE = `The VICS web app is not built yet.

Build it with:

    npm run build -w @vics/web

then reload this page. (npm start at the repository root builds it for you.)
`;

/** Where `path` really is once every symlink is followed, or undefined if nothing is there. */
function realPath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** Whether `real` (a path with every symlink followed) is `realRoot` or under it. */
function under(realRoot: string, real: string): boolean {
  return real === realRoot || real.startsWith(realRoot + sep);
}

/**
 * Whether the file serveStatic would send for `relative` (a folder's index.html included) is
 * inside the web root once symlinks are followed: a link in web/dist to the data folder must
 * not serve the key file beside the database. Nothing there is "inside": nothing is served.
 */
function staysInside(root: string, relative: string): boolean {
  const realRoot = realPath(root);
  if (realRoot === undefined) return true;
  const inside = (path: string) => {
    const real = realPath(path);
    return real === undefined || under(realRoot, real);
  };
  const candidate = join(root, relative);
  if (!inside(candidate)) return false;
  let folder = false;
  try {
    folder = statSync(candidate).isDirectory();
  } catch {
    // Nothing there: serveStatic finds nothing either.
  }
  return !folder || inside(join(candidate, "index.html"));
}

/**
 * No dotfile (`/.env`, `/.git/config`, `/%2egit/config`: any segment starting with a dot,
 * however encoded) and nothing that resolves outside the web root.
 */
function refused(c: Context, root: string, path: string | undefined): boolean {
  if (path !== undefined) return !staysInside(root, path);
  return (
    namesDotfile(c.req.path) || !staysInside(root, decodedPath(c.req.path))
  );
}

/**
 * The file at `relative` under `root` (a folder's index.html), or undefined when there is none.
 * Like serveStatic before it: a path still holding a percent sign, `..`, `//` or `\\` names no
 * file (a deep link like /vehicle/AB12%20CDE gets the app).
 */
async function fileAt(
  root: string,
  relative: string,
): Promise<string | undefined> {
  if (/%|(?:^|[/\\])\.{1,2}(?:$|[/\\])|[/\\]{2,}|\\/.test(relative))
    return undefined;
  let path = join(root, relative);
  let stats = await stat(path).catch(() => undefined);
  if (stats?.isDirectory()) {
    path = join(path, "index.html");
    stats = await stat(path).catch(() => undefined);
  }
  return stats?.isFile() ? path : undefined;
}

/** A copy the build wrote beside a file: its encoding, and where it really is. */
interface BuiltCopy {
  encoding: BuiltEncoding;
  real: string;
}

/**
 * The copies the build wrote beside `path` (web/vite.config.ts), in the server's order. Each
 * passes the check the requested file passed (refused()): once every symlink is followed it is
 * inside the web root and a regular file, or it is left out and the next encoding (or the file
 * as it is) is sent. Without that, `app.js.gz` linked to the data folder's key file would send
 * the key to any client asking for gzip.
 */
async function builtCopies(root: string, path: string): Promise<BuiltCopy[]> {
  const realRoot = await realpath(root).catch(() => undefined);
  if (realRoot === undefined) return [];
  const found = await Promise.all(
    BUILT_ENCODINGS.map(async (encoding) => {
      const real = await realpath(path + encoding.suffix).catch(
        () => undefined,
      );
      if (real === undefined || !under(realRoot, real)) return undefined;
      const stats = await stat(real).catch(() => undefined);
      return stats?.isFile() ? { encoding, real } : undefined;
    }),
  );
  return found.filter((copy) => copy !== undefined);
}

/**
 * Sends `path` as the request asked for it: its Brotli or gzip file when the build wrote one
 * and Accept-Encoding names it (accept-encoding.ts), else the file as it is. Content-Type is the
 * file's own whichever is sent; a file built in several encodings says `Vary: Accept-Encoding`
 * in each of them, so a cache never hands one client's encoding to another. Undefined when the
 * file went away meanwhile (a rebuild empties web/dist first). A copy a symlink leads out of
 * `root` is never sent (builtCopies).
 */
async function sendFile(
  c: Context,
  root: string,
  path: string,
  cacheControl: string,
): Promise<Response | undefined> {
  const copies = await builtCopies(root, path);
  const encodings = copies.map((copy) => copy.encoding);
  const encoding = chooseEncoding(c.req.header("Accept-Encoding"), encodings);
  // The copy's checked real path, not path + suffix again: that could be relinked meanwhile.
  const sent = copies.find((copy) => copy.encoding === encoding)?.real ?? path;
  const read = await Promise.all([readFile(sent), stat(sent)]).catch(
    () => undefined,
  );
  if (!read) return undefined;
  const [body, stats] = read;
  c.header("Content-Type", getMimeType(path) ?? "application/octet-stream");
  c.header("Content-Length", String(body.length));
  c.header("Last-Modified", stats.mtime.toUTCString());
  c.header("Cache-Control", cacheControl);
  if (encodings.length > 0)
    c.header("Vary", "Accept-Encoding", { append: true });
  if (encoding) c.header("Content-Encoding", encoding.coding);
  return c.req.method === "HEAD" ? c.body(null, 200) : c.body(body, 200);
}

/**
 * Serves the file the request names, or `path` for every request (index.html). The web root
 * may be built while the proxy runs, so a missing one only means "nothing here yet".
 */
function serveBuiltFiles(options: { root: string; path?: string }) {
  const middleware: MiddlewareHandler = async (c, next) => {
    if (!existsSync(options.root)) return next();
    if (refused(c, options.root, options.path))
      return c.text("Not found", 404, { "Cache-Control": "no-store" });
    const file = await fileAt(options.root, options.path ?? c.req.path);
    if (!file) return next();
    const hashed = c.req.path.startsWith("/assets/");
    const response = await sendFile(
      c,
      options.root,
      file,
      hashed ? IMMUTABLE : "no-cache",
    );
    return response ?? next();
  };
  return middleware;
}

/**
 * Whether the path asks for a file rather than a page: its last segment has a dot in it
 * (/favicon.ico, /wp-login.php, a robots.txt the build lacks): connect-history-api-fallback's
 * dot rule. The app's pages never do: their parameters are plates and ids.
 */
function namesAFile(path: string): boolean {
  return (decodedPath(path).split("/").at(-1) ?? "").includes(".");
}

export function webAppIsBuilt(webRoot: string): boolean {
  return existsSync(join(webRoot, "index.html"));
}

/**
 * Serves the built single-page app. Files that exist are served, precompressed when the
 * client takes it (sendFile); any other GET that names no file (a deep link like
 * /vehicle/AB12CDE) gets index.html so the app's router can take over. Paths that read as /api or /v1 in any spelling never get here: api-routes.ts
 * answers them, so an API client is never handed the app's HTML. Missing hashed assets stay
 * 404s: HTML in place of a script only produces a confusing MIME error in the browser.
 * Dotfiles and anything a symlink leads outside the web root are 404s too.
 */
export function registerStaticSite(app: Hono<AppEnv>, webRoot: string) {
  app.get("*", serveBuiltFiles({ root: webRoot }));
  app.get("/assets/*", (c) => c.text("Not found", 404));
  // A file that is not there (a scanner's /wp-login.php, a browser's /favicon.ico) is a 404,
  // not the app's HTML under a 200 that reads as "it exists".
  app.get("*", async (c, next) =>
    namesAFile(c.req.path) ? c.text("Not found", 404) : next(),
  );
  app.get("*", serveBuiltFiles({ root: webRoot, path: "index.html" }));
  app.get("*", (c) =>
    c.text(NOT_BUILT_PAGE, 503, { "Cache-Control": "no-store" }),
  );
}
