// `node bench/floors/careful-bff-server.ts` (settings in the environment, careful-bff.ts): the
// proxy's floor, the cheapest careful backend-for-frontend forwarding the insurance check
// GET /api/v1/vehicle/:registration/insurance to the service with its key added server-side,
// so the bench can say what the proxy costs beyond the job itself.
//
// Careful means: only a normalised registration passes the path (400 otherwise); only Accept
// and a plain X-Request-Id go upstream, only Content-Type, X-RateLimit-*, Retry-After and
// X-Request-Id come back (and its own Cache-Control: no-store); the proxy's security headers
// on every answer; keep-alive connections with undici's own timeouts (504 on a timeout, 502
// when the service cannot be reached); an asynchronous access-log line per request. With
// sessions (BFF_SESSIONS_DATABASE): a live session's cookie or 401, and every forwarded check
// an audit event committed before its answer goes (careful-bff-sessions.ts).
//
// It leaves out, beside the real proxy: the answer's contract check (decision 017: parsing the
// JSON, the shared schemas, 502 on a breach), the host, origin and fetch-metadata checks, the
// bodies refused on GET, per-user limits, the request id made when absent, the plate's keyed
// hash in the log, sign-in itself (the session is made at start), session idle times and
// touches, roles, the audit's per-plate index and detail (verdict, point in time), point-in-time
// questions, the resend of a GET on a closed keep-alive connection, the key reloaded on SIGHUP,
// the bulk, compliance, data, fleet, watch and admin routes, idempotent replay, the SPA and its
// static files, readiness, Redis, connection guards and a graceful stop.
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { serve } from "@hono/node-server";
import { Hono, type Context } from "hono";
import { getCookie } from "hono/cookie";
import { secureHeaders } from "hono/secure-headers";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type * as Undici from "undici";
import {
  API_KEY_HEADER,
  isAcceptableRequestId,
  PROXY_PREFIX,
  REQUEST_ID_HEADER,
  ROUTE_PATTERNS,
} from "@vics/shared";
import {
  invalidRegistration,
  type ProblemError,
} from "@vics/server-kit/problem-error";
import { problemResponse } from "@vics/server-kit/problem-response";
import type { ServerEnv } from "@vics/server-kit/server-env";
import { AUTH_PROBLEMS } from "../../proxy/src/team/auth/auth-problems.ts";
import {
  browserResponseHeaders,
  UPSTREAM_ACCEPT,
} from "../../proxy/src/gateway/forward/header-allowlists.ts";
import { PROXY_PROBLEMS } from "../../proxy/src/gateway/http/problem.ts";
import { replyHeaders } from "../../proxy/src/gateway/upstream/upstream-pool.ts";
import { accessLog } from "./access-log.ts";
import {
  CONTENT_SECURITY_POLICY,
  SESSION_COOKIE,
} from "./careful-bff-headers.ts";
import { openBffSessions } from "./careful-bff-sessions.ts";

const setting = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`careful BFF: ${name} is not set`);
  return value;
};
const upstream = new URL(setting("BFF_UPSTREAM_URL"));
const key = setting("BFF_API_KEY");
const timeoutMs = Number(setting("BFF_TIMEOUT_MS"));
const sessions = process.env.BFF_SESSIONS_DATABASE
  ? openBffSessions(
      process.env.BFF_SESSIONS_DATABASE,
      setting("BFF_SESSION_TOKEN"),
    )
  : undefined;

// The proxy's own undici (the version the real proxy runs): from bench/, a bare "undici" is
// whichever another workspace's dependency hoisted.
const { Pool } = createRequire(
  resolve(import.meta.dirname, "../../proxy/package.json"),
)("undici") as typeof Undici;
const pool = new Pool(upstream.origin, {
  connections: 128,
  headersTimeout: timeoutMs,
  bodyTimeout: timeoutMs,
});
const TIMEOUTS = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

const NORMALISED = /^[A-Z0-9]{2,7}$/;
/** The service's answer with only the allowlisted headers, or the BFF's own 502 or 504. */
async function forward(
  c: Context<ServerEnv>,
  registration: string,
): Promise<Response> {
  const headers: Record<string, string> = {
    accept: c.req.header("accept") ?? UPSTREAM_ACCEPT,
    [API_KEY_HEADER]: key,
  };
  const requestId = c.req.header(REQUEST_ID_HEADER);
  if (isAcceptableRequestId(requestId)) headers[REQUEST_ID_HEADER] = requestId;
  try {
    const answer = await pool.request({
      path: `/v1/vehicle/${registration}/insurance`,
      method: "GET",
      headers,
    });
    const body = await answer.body.text();
    // The proxy's own allowlist, read from undici's headers as the proxy reads them.
    const back = {
      "cache-control": "no-store",
      ...browserResponseHeaders(replyHeaders(answer.headers)),
    };
    return c.body(body, answer.statusCode as ContentfulStatusCode, back);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return problem(
      c,
      typeof code === "string" && TIMEOUTS.has(code)
        ? PROXY_PROBLEMS.upstreamTimeout()
        : PROXY_PROBLEMS.upstreamUnreachable(),
    );
  }
}

const problem = (c: Context<ServerEnv>, refusal: ProblemError) =>
  problemResponse(c, refusal, { "Cache-Control": "no-store" });

const app = new Hono<ServerEnv>();
app.use(accessLog());
app.use(
  secureHeaders({
    contentSecurityPolicy: CONTENT_SECURITY_POLICY,
    xFrameOptions: "DENY",
    referrerPolicy: "no-referrer",
  }),
);
app.get(`${PROXY_PREFIX}${ROUTE_PATTERNS.insurance}` as const, async (c) => {
  const userId = sessions?.userOf(getCookie(c, SESSION_COOKIE));
  if (sessions && userId === undefined)
    return problem(c, AUTH_PROBLEMS.signInRequired());
  const registration = c.req.param("registration");
  if (!NORMALISED.test(registration))
    return problem(
      c,
      invalidRegistration(
        "Registration must be 2 to 7 letters A to Z and numbers 0 to 9, without spaces",
      ),
    );
  const answer = await forward(c, registration);
  if (sessions && userId !== undefined)
    await sessions.audit({ userId, registration, status: answer.status });
  return answer;
});

serve({
  fetch: app.fetch,
  hostname: "127.0.0.1",
  port: Number(setting("PORT")),
});

// Stopped with SIGTERM: an exit of its own, so that a CPU profile (`--cpu-prof`, as
// bench/proxy-cpu-profile.ts runs it) is written; killed by the signal, it would not be.
process.on("SIGTERM", () => process.exit(0));
