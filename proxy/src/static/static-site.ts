import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Hono, MiddlewareHandler } from "hono";
import {
  serveStatic,
  type ServeStaticOptions,
} from "@hono/node-server/serve-static";
import type { AppEnv } from "../http/app-env.ts";

// Vite puts content-hashed files under /assets/, so they never change under one name.
const IMMUTABLE = "public, max-age=31536000, immutable";

const NOT_BUILT_PAGE = `The VICS web app is not built yet.

Build it with:

    npm run build -w @vics/web

then reload this page. (npm start at the repository root builds it for you.)
`;

// serveStatic complains on the console when its root is missing, so it is created
// once the web app exists (it may be built while the proxy runs).
function serveBuiltFiles(options: ServeStaticOptions & { root: string }) {
  let serve: MiddlewareHandler | undefined;
  const middleware: MiddlewareHandler = async (c, next) => {
    if (!serve && !existsSync(options.root)) return next();
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
 * take over. Paths under /api and /v1 never get here: api-routes.ts answers them,
 * so an API client is never handed the app's HTML. Missing hashed assets stay 404s: HTML in place of a script only
 * produces a confusing MIME error in the browser.
 */
export function registerStaticSite(app: Hono<AppEnv>, webRoot: string) {
  app.get("*", serveBuiltFiles({ root: webRoot }));
  app.get("/assets/*", (c) => c.text("Not found", 404));
  app.get("*", serveBuiltFiles({ root: webRoot, path: "index.html" }));
  app.get("*", (c) =>
    c.text(NOT_BUILT_PAGE, 503, { "Cache-Control": "no-store" }),
  );
}
