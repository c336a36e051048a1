import { existsSync, realpathSync, statSync } from "node:fs";
import { join, sep } from "node:path";
import type { Context, Hono, MiddlewareHandler } from "hono";
import {
  serveStatic,
  type ServeStaticOptions,
} from "@hono/node-server/serve-static";
import type { AppEnv } from "../http/app-env.ts";
import { decodedPath, namesDotfile } from "../edges/path-spellings.ts";

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
    return (
      real === undefined || real === realRoot || real.startsWith(realRoot + sep)
    );
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

// serveStatic complains on the console when its root is missing, so it is created
// once the web app exists (it may be built while the proxy runs).
function serveBuiltFiles(options: ServeStaticOptions & { root: string }) {
  let serve: MiddlewareHandler | undefined;
  const middleware: MiddlewareHandler = async (c, next) => {
    if (!serve && !existsSync(options.root)) return next();
    if (refused(c, options.root, options.path))
      return c.text("Not found", 404, { "Cache-Control": "no-store" });
    serve ??= serveStatic(options);
    const response = await serve(c, next);
    if (response instanceof Response) {
      const hashed = c.req.path.startsWith("/assets/");
      response.headers.set("Cache-Control", hashed ? IMMUTABLE : "no-cache");
    }
    return response;
  };
  return middleware;
}

export function webAppIsBuilt(webRoot: string): boolean {
  return existsSync(join(webRoot, "index.html"));
}

/**
 * Serves the built single-page app. Files that exist are served; any other GET
 * (a deep link like /vehicle/AB12CDE) gets index.html so the app's router can
 * take over. Paths that read as /api or /v1 in any spelling never get here: api-routes.ts
 * answers them, so an API client is never handed the app's HTML. Missing hashed assets stay
 * 404s: HTML in place of a script only produces a confusing MIME error in the browser.
 * Dotfiles and anything a symlink leads outside the web root are 404s too.
 */
export function registerStaticSite(app: Hono<AppEnv>, webRoot: string) {
  app.get("*", serveBuiltFiles({ root: webRoot }));
  app.get("/assets/*", (c) => c.text("Not found", 404));
  app.get("*", serveBuiltFiles({ root: webRoot, path: "index.html" }));
  app.get("*", (c) =>
    c.text(NOT_BUILT_PAGE, 503, { "Cache-Control": "no-store" }),
  );
}
