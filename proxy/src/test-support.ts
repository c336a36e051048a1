/** Test doubles shared by the proxy's tests (not imported by the app). */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { CLIENT_HEADER } from "@vics/shared";
import type { Hono } from "hono";
import type { AppEnv } from "./http/app-env.ts";
import { createMemoryRateLimiter } from "@vics/shared/server/memory-rate-limiter";
import { registrationHasher } from "@vics/shared/server/registration-hash";
import { createProxyApp, type ProxySettings } from "./app.ts";
import { type ProxyDeps, systemClock } from "./proxy-deps.ts";
import {
  createLogger,
  type LogFields,
  type LogLevel,
} from "@vics/shared/server/logger";
import {
  sendWithFetch,
  type UpstreamFetch,
  type UpstreamSend,
} from "./upstream/upstream-call.ts";
import { contractAnswer } from "./test-support/contract-answer.ts";

export { contractAnswer };

export const TEST_API_KEY = "vics_test_proxy_key_5f0c2a9e";

export interface LogEntry {
  level: LogLevel;
  message: string;
  /** The event's own fields (time and service are on every line, so left out). */
  fields: LogFields;
}

/**
 * The real logger and format, kept in memory. It masks nothing, so a test that finds no key
 * in `text()` proves the key was never logged, not that the mask caught it.
 */
export function createMemoryLogger(level: LogLevel = "info") {
  const lines: string[] = [];
  const entries: LogEntry[] = [];
  const write = (line: string) => {
    lines.push(line);
    const {
      level: lineLevel,
      msg,
      time: _time,
      service: _service,
      ...fields
    } = JSON.parse(line);
    entries.push({ level: lineLevel, message: msg, fields });
  };
  const logger = createLogger({
    service: "proxy",
    level,
    destination: { write },
  });
  return { logger, entries, text: () => lines.join("") };
}

/** A seam double for the upstream: records every request it is given. */
export function fakeUpstream(
  respond: (request: Request) => Response | Promise<Response> = contractAnswer,
) {
  const requests: Request[] = [];
  const fetch: UpstreamFetch = async (input, init) => {
    const request = new Request(input, init);
    requests.push(request);
    return respond(request);
  };
  return { fetch, requests };
}

export function emptyWebRoot(): string {
  return mkdtempSync(join(tmpdir(), "vics-proxy-web-"));
}

/** A page and a script: enough of a build for the tests that only need the app served. */
const SMALL_BUILD = {
  "index.html": "<!doctype html><p>app</p>",
  "assets/index-a1b2c3.js": "console.log(1)",
};

/** A web root as the web app's build leaves it: each file's path below it, and its text. */
export function builtWebRoot(
  files: Record<string, string> = SMALL_BUILD,
): string {
  const root = emptyWebRoot();
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** What the web app's one API client adds to every request (web/src/lib/api-client.ts). */
const WEB_CLIENT_HEADERS = { [CLIENT_HEADER]: "web" } as const;

// In place: a copy of the Request would start pulling its body, which some tests count.
function withClientHeader(request: Request): Request {
  if (!request.headers.has(CLIENT_HEADER))
    request.headers.set(CLIENT_HEADER, WEB_CLIENT_HEADERS[CLIENT_HEADER]);
  return request;
}

type ProxyApp = Pick<Hono<AppEnv>, "request" | "fetch">;

/**
 * The proxy as the web app calls it: every request carries the web app's CLIENT_HEADER unless
 * it sets one of its own. Tests of the proxy's edges use the app itself, which adds nothing.
 */
function asWebApp(app: Hono<AppEnv>): ProxyApp {
  return {
    request: (input, init, ...rest) => {
      if (input instanceof Request)
        return app.request(
          withClientHeader(init ? new Request(input, init) : input),
          undefined,
          ...rest,
        );
      const headers = new Headers(init?.headers);
      if (!headers.has(CLIENT_HEADER))
        headers.set(CLIENT_HEADER, WEB_CLIENT_HEADERS[CLIENT_HEADER]);
      return app.request(input, { ...init, headers }, ...rest);
    },
    fetch: (request, ...rest) => app.fetch(withClientHeader(request), ...rest),
  };
}

/**
 * `app`: as the web app calls it (asWebApp); `proxy`: the app itself, as any client may call
 * it, for the tests of what the proxy refuses.
 */
export function createTestProxy(
  options: Partial<ProxySettings> &
    Partial<Omit<ProxyDeps, "upstream">> & {
      /** The upstream as a fetch (the service's app, a fake), or `send`, as the proxy calls it. */
      fetch?: UpstreamFetch;
      send?: UpstreamSend;
    },
) {
  const log = createMemoryLogger();
  const { clock, limiter, logger, hashRegistration, fetch, send, ...settings } =
    options;
  const upstream = send ?? (fetch && sendWithFetch(fetch));
  if (!upstream)
    throw new Error("createTestProxy needs `fetch` or `send` for the upstream");
  const proxy = createProxyApp(
    {
      upstreamUrl: "http://upstream.test",
      apiKey: TEST_API_KEY,
      timeoutMs: 1000,
      webRoot: emptyWebRoot(),
      ...settings,
    },
    {
      clock: clock ?? systemClock,
      limiter: limiter ?? createMemoryRateLimiter(),
      logger: logger ?? log.logger,
      upstream,
      hashRegistration: hashRegistration ?? registrationHasher(),
    },
  );
  return { app: asWebApp(proxy), proxy, log };
}
