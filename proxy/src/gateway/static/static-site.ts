import { existsSync, type Stats } from "node:fs";
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

/** Whether `real` (a path with every symlink followed) is `realRoot` or under it. */
function under(realRoot: string, real: string): boolean {
  return real === realRoot || real.startsWith(realRoot + sep);
}

/**
 * The web root, and where it really is once every symlink is followed. That is worked out once
 * the root exists (a failed realpath means "not built yet", and is asked again on the next
 * request, so a build made while the proxy runs is picked up), not on every request.
 */
class WebRoot {
  readonly root: string;
  #real: string | undefined;

  constructor(root: string) {
    this.root = root;
  }

  /** The root's real path, or undefined while there is no root. */
  async real(): Promise<string | undefined> {
    this.#real ??= await realpath(this.root).catch(() => undefined);
    return this.#real;
  }

  /**
   * Whether `real` is inside the web root. Before refusing, the root is looked at again: a
   * deploy may have relinked it (web/dist to the next release) since it was worked out.
   */
  async holds(real: string): Promise<boolean> {
    const known = await this.real();
    if (known !== undefined && under(known, real)) return true;
    const now = await realpath(this.root).catch(() => undefined);
    if (now === undefined || now === known) return false;
    this.#real = now;
    return under(now, real);
  }
}

/** A file under the web root: the path asked for, where it really is, and its stats. */
interface Located {
  path: string;
  real: string;
  stats: Stats;
}

/** A copy the build wrote beside a file: its encoding, where it really is, and its stats. */
interface BuiltCopy {
  encoding: BuiltEncoding;
  real: string;
  stats: Stats;
}

/** A regular file to send, with the copies the build wrote beside it. */
interface Resolved extends Located {
  copies: BuiltCopy[];
}

/** Something a symlink leads out of the web root: never served, and a 404. */
const OUTSIDE = "outside";

/**
 * What is at `path` once every symlink is followed (one realpath, one stat), OUTSIDE when that
 * is outside the web root, or undefined when nothing is there.
 */
async function locate(
  site: WebRoot,
  path: string,
): Promise<Located | typeof OUTSIDE | undefined> {
  const real = await realpath(path).catch(() => undefined);
  if (real === undefined) return undefined;
  if (!(await site.holds(real))) return OUTSIDE;
  const stats = await stat(real).catch(() => undefined);
  return stats && { path, real, stats };
}

/**
 * The copies the build wrote beside `path` (web/vite.config.ts), in the server's order. Each
 * passes the check the requested file passed (resolve()): once every symlink is followed it is
 * inside the web root and a regular file, or it is left out and the next encoding (or the file
 * as it is) is sent. Without that, `app.js.gz` linked to the data folder's key file would send
 * the key to any client asking for gzip.
 */
async function builtCopies(site: WebRoot, path: string): Promise<BuiltCopy[]> {
  const found = await Promise.all(
    BUILT_ENCODINGS.map(async (encoding) => {
      const copy = await locate(site, path + encoding.suffix);
      if (copy === OUTSIDE || !copy?.stats.isFile()) return undefined;
      return { encoding, real: copy.real, stats: copy.stats };
    }),
  );
  return found.filter((copy) => copy !== undefined);
}

/**
 * The regular file serveStatic would send for `relative` under the web root (a folder's
 * index.html), with its built copies; OUTSIDE when that file, or the folder, is outside the web
 * root once symlinks are followed (a link in web/dist to the data folder must not serve the
 * key file beside the database); undefined when there is no such file.
 */
async function resolve(
  site: WebRoot,
  relative: string,
): Promise<Resolved | typeof OUTSIDE | undefined> {
  let found = await locate(site, join(site.root, relative));
  if (found !== OUTSIDE && found?.stats.isDirectory())
    found = await locate(site, join(found.path, "index.html"));
  if (found === OUTSIDE) return OUTSIDE;
  if (!found?.stats.isFile()) return undefined;
  return { ...found, copies: await builtCopies(site, found.path) };
}

/**
 * Like serveStatic before it: a path still holding a percent sign, `..`, `//` or `\\` names no
 * file (a deep link like /vehicle/AB12%20CDE gets the app).
 */
const NAMES_NO_FILE = /%|(?:^|[/\\])\.{1,2}(?:$|[/\\])|[/\\]{2,}|\\/;

/**
 * Sends `file` as the request asked for it: its Brotli or gzip file when the build wrote one
 * and Accept-Encoding names it (accept-encoding.ts), else the file as it is. Content-Type is the
 * file's own whichever is sent; a file built in several encodings says `Vary: Accept-Encoding`
 * in each of them, so a cache never hands one client's encoding to another. Undefined when the
 * file went away meanwhile (a rebuild empties web/dist first). A copy a symlink leads out of
 * the web root is never sent (builtCopies). HEAD reads nothing: its length is the file's size.
 */
async function sendFile(
  c: Context,
  file: Resolved,
  cacheControl: string,
): Promise<Response | undefined> {
  const encodings = file.copies.map((copy) => copy.encoding);
  const encoding = chooseEncoding(c.req.header("Accept-Encoding"), encodings);
  // The checked real path, not path + suffix again: that could be relinked meanwhile.
  const sent = file.copies.find((copy) => copy.encoding === encoding) ?? file;
  const head = c.req.method === "HEAD";
  const body = head ? undefined : await readFile(sent.real).catch(() => null);
  if (body === null) return undefined;
  c.header(
    "Content-Type",
    getMimeType(file.path) ?? "application/octet-stream",
  );
  c.header("Content-Length", String(body?.length ?? sent.stats.size));
  c.header("Last-Modified", sent.stats.mtime.toUTCString());
  c.header("Cache-Control", cacheControl);
  if (encodings.length > 0)
    c.header("Vary", "Accept-Encoding", { append: true });
  if (encoding) c.header("Content-Encoding", encoding.coding);
  return body ? c.body(body, 200) : c.body(null, 200);
}

/**
 * Serves the file the request names, or `path` for every request (index.html). The web root
 * may be built while the proxy runs, so a missing one only means "nothing here yet". Refused
 * with a 404: a dotfile (`/.env`, `/.git/config`, `/%2egit/config`: any segment starting with
 * a dot, however encoded), and anything that resolves outside the web root, the decoded path
 * included even where the path as it is names no file.
 */
function serveBuiltFiles(site: WebRoot, path?: string) {
  const middleware: MiddlewareHandler = async (c, next) => {
    if ((await site.real()) === undefined) return next();
    const refuse = () =>
      c.text("Not found", 404, { "Cache-Control": "no-store" });
    if (path === undefined && namesDotfile(c.req.path)) return refuse();
    const relative = path ?? c.req.path;
    if (NAMES_NO_FILE.test(relative)) {
      // Nothing to send, but what it decodes to must not lead out of the web root either.
      const decoded = await resolve(site, decodedPath(relative));
      return decoded === OUTSIDE ? refuse() : next();
    }
    // With no percent sign or backslash, the path is its own decoded path: one lookup for both.
    const file = await resolve(site, relative);
    if (file === OUTSIDE) return refuse();
    if (!file) return next();
    const hashed = c.req.path.startsWith("/assets/");
    const response = await sendFile(c, file, hashed ? IMMUTABLE : "no-cache");
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
  const site = new WebRoot(webRoot);
  app.get("*", serveBuiltFiles(site));
  app.get("/assets/*", (c) => c.text("Not found", 404));
  // A file that is not there (a scanner's /wp-login.php, a browser's /favicon.ico) is a 404,
  // not the app's HTML under a 200 that reads as "it exists".
  app.get("*", async (c, next) =>
    namesAFile(c.req.path) ? c.text("Not found", 404) : next(),
  );
  app.get("*", serveBuiltFiles(site, "index.html"));
  app.get("*", (c) =>
    c.text(NOT_BUILT_PAGE, 503, { "Cache-Control": "no-store" }),
  );
}
