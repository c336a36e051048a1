/** Test doubles shared by the proxy's tests (not imported by the app). */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { CLIENT_HEADER, type Role } from "@vics/shared";
import type { Hono } from "hono";
import type { AppEnv } from "../team/http/app-env.ts";
import {
  Sessions,
  sessionCookie,
  type SessionTimes,
} from "../team/auth/sessions.ts";
import { createMemoryUserLimiter } from "../team/limits/user-limits.ts";
import { memoryLimitStore } from "@vics/server-kit/memory-rate-limiter";
import type { ProxyStore } from "../team/store/proxy-store.ts";
import { openSqliteProxyStore } from "../team/store/sqlite/sqlite-proxy-store.ts";
import { registrationHasher } from "@vics/server-kit/registration-hash";
import { createProxyApp, type ProxySettings } from "../app.ts";
import { type ProxyDeps, systemClock } from "../proxy-deps.ts";
import { memoryLogger } from "@vics/server-kit/testing/memory-logger";
import {
  sendWithFetch,
  type UpstreamFetch,
  type UpstreamSend,
} from "../gateway/upstream/upstream-call.ts";
import { contractAnswer } from "./contract-answer.ts";

export { contractAnswer };

export const TEST_API_KEY = "vics_test_proxy_key_5f0c2a9e";

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

/** A web root of its own, for a test that writes into it (static-site.test.ts). */
export function emptyWebRoot(): string {
  return mkdtempSync(join(tmpdir(), "vics-proxy-web-"));
}

/**
 * The web root of a test proxy that serves no page: a folder that is never made. The proxy
 * answers its pages 503 as before a build, as it would from an empty folder, and a test run
 * leaves no folder behind (one per app filled /tmp with thousands).
 */
const NO_WEB_APP = join(tmpdir(), "vics-proxy-no-web-app", "dist");

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

/** The lengths of the test proxies' sessions: an hour idle, two at most. */
export const TEST_SESSION_TIMES: SessionTimes = {
  idleMs: 3_600_000,
  absoluteMs: 7_200_000,
};

/** The proxy's own store in memory, as the tests' proxies use it. */
export function memoryProxyStore(): ProxyStore {
  return openSqliteProxyStore({ path: ":memory:", auditRetentionDays: 30 });
}

type ProxyApp = Pick<Hono<AppEnv>, "request" | "fetch">;

/**
 * The proxy with `headers` added to every request that does not set them itself, as a
 * signed-in browser sends its cookie (beside any other cookie the request has, unless it
 * names a session of its own). In place: a copy of the Request would start pulling its
 * body, which some tests count.
 */
function withHeaders(
  app: Hono<AppEnv>,
  headers: () => Promise<Record<string, string>>,
): ProxyApp {
  const add = async (target: Headers) => {
    for (const [name, value] of Object.entries(await headers())) {
      const own = target.get(name);
      // A request's own cookies travel beside the session's, as a browser sends them all.
      if (own !== null && name === "Cookie" && !own.includes("vics_session="))
        target.set(name, `${own}; ${value}`);
      else if (own === null) target.set(name, value);
    }
  };
  return {
    request: async (input, init, ...rest) => {
      if (input instanceof Request) {
        const request = init ? new Request(input, init) : input;
        await add(request.headers);
        return app.request(request, undefined, ...rest);
      }
      const given = new Headers(init?.headers);
      await add(given);
      return app.request(input, { ...init, headers: given }, ...rest);
    },
    fetch: async (request, ...rest) => {
      await add(request.headers);
      return app.fetch(request, ...rest);
    },
  };
}

/**
 * `app`: as the web app calls it for a signed-in user of `role` (admin unless told): the web
 * app's CLIENT_HEADER and the session cookie on every request that does not set its own;
 * `proxy`: as any client of that signed-in user's browser may call it, with the cookie only,
 * for the tests of what the proxy refuses even then; `anonymous`: the app itself, with nothing
 * added; `signIn(role)`: the Cookie header of another new user's session.
 */
export function createTestProxy(
  options: Partial<ProxySettings> &
    Partial<Omit<ProxyDeps, "upstream">> & {
      /** The upstream as a fetch (the service's app, a fake), or `send`, as the proxy calls it. */
      fetch?: UpstreamFetch;
      send?: UpstreamSend;
      /** The role of the user `app` is signed in as. */
      role?: Role;
    },
) {
  const log = memoryLogger("info", "proxy");
  const {
    clock,
    limiter,
    limitStore,
    logger,
    hashRegistration,
    fetch,
    send,
    store: givenStore,
    watchJobs,
    role = "admin",
    ...settings
  } = options;
  const upstream = send ?? (fetch && sendWithFetch(fetch));
  if (!upstream)
    throw new Error("createTestProxy needs `fetch` or `send` for the upstream");
  const store = givenStore ?? memoryProxyStore();
  const proxy = createProxyApp(
    {
      upstreamUrl: "http://upstream.test",
      apiKey: TEST_API_KEY,
      timeoutMs: 1000,
      webRoot: NO_WEB_APP,
      ...settings,
    },
    {
      clock: clock ?? systemClock,
      limiter: limiter ?? createMemoryUserLimiter(),
      limitStore: limitStore ?? memoryLimitStore,
      logger: logger ?? log,
      upstream,
      hashRegistration: hashRegistration ?? registrationHasher(),
      store,
      watchJobs,
    },
  );
  const sessions = new Sessions(
    store,
    () => (clock ?? systemClock).now(),
    TEST_SESSION_TIMES,
  );
  const cookieName = sessionCookie(settings.publicOrigin).name;
  let count = 0;
  async function signIn(as: Role): Promise<string> {
    count += 1;
    const user = await store.createUser(
      { email: `${as}${count}@example.org`, name: `${as} ${count}`, role: as },
      new Date(),
    );
    return `${cookieName}=${await sessions.start(user)}`;
  }
  let first: Promise<string> | undefined;
  const cookie = () => (first ??= signIn(role));
  return {
    app: withHeaders(proxy, async () => ({
      ...WEB_CLIENT_HEADERS,
      Cookie: await cookie(),
    })),
    proxy: withHeaders(proxy, async () => ({ Cookie: await cookie() })),
    anonymous: proxy,
    log,
    store,
    signIn,
    cookie,
  };
}
