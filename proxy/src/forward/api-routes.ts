import type { Hono } from "hono";
import {
  PROXY_PREFIX,
  ROUTE_PATTERNS,
  parseRegistration,
  paths,
  type PointInTime,
  readPointInTime,
} from "@vics/shared";
import { bulkBodyChecks, readBulkBody } from "@vics/shared/server/bulk-body";
import { answerWrongMethods } from "@vics/shared/server/method-not-allowed";
import type { AppContext, AppEnv } from "../http/app-env.ts";
import { EDGE_PROBLEMS } from "../edges/edge-problems.ts";
import { looksLikeApi } from "../edges/path-spellings.ts";
import type { Forward, RewriteAnswer } from "./forward.ts";
import {
  type ForwardedRoute,
  proxyCopyOfOpenApi,
} from "../openapi/openapi-copy.ts";
import { PROXY_PROBLEMS } from "../http/problem.ts";
import {
  type IdempotentReplay,
  idempotencyKey,
} from "./replay/idempotent-replay.ts";

interface ForwardedOperation extends ForwardedRoute {
  /**
   * The service's path for this request; `registration` is the path's registration already
   * normalised by the shared parser (A-Z and 0-9 only), for the routes that have one.
   */
  upstreamPath(registration: string): string;
  rewrite?: RewriteAnswer;
}

/**
 * Only these reach the service, and the proxy's copy of the OpenAPI document lists
 * exactly these. A POST carries a bulk request body, checked here first
 * (@vics/shared/server/bulk-body).
 */
export const FORWARDED_OPERATIONS: readonly ForwardedOperation[] = [
  {
    method: "get",
    route: ROUTE_PATTERNS.insurance,
    upstreamPath: (registration) => paths.insurance(registration),
  },
  {
    method: "post",
    route: ROUTE_PATTERNS.bulkInsurance,
    upstreamPath: () => paths.bulkInsurance(),
  },
  {
    method: "post",
    route: ROUTE_PATTERNS.bulkCompliance,
    upstreamPath: () => paths.bulkCompliance(),
  },
  {
    method: "get",
    route: ROUTE_PATTERNS.compliance,
    upstreamPath: (registration) => paths.compliance(registration),
  },
  {
    method: "get",
    route: ROUTE_PATTERNS.openapi,
    upstreamPath: () => paths.openapi(),
    rewrite: (document) => proxyCopyOfOpenApi(document, FORWARDED_OPERATIONS),
  },
];

/**
 * The registration in the path, as the shared parser normalises it, or the proxy's own 400 in
 * the service's words. Only the normalised form goes upstream: whatever the path held
 * (`..%2F..%2Fadmin`, `%00`, a lookalike letter), the service sees 2 to 7 of A-Z and 0-9, so
 * an upstream behind a path-decoding server can never be sent a traversal.
 */
function pathRegistration(c: AppContext): string {
  const raw = c.req.param("registration");
  if (raw === undefined) return "";
  const parsed = parseRegistration(raw);
  if (!parsed.ok) throw EDGE_PROBLEMS.invalidRegistration(parsed.message);
  return parsed.registration;
}

/** A single check's `date` and `asKnownAt`, validated as the service would, or its 400. */
function askedPointInTime(c: AppContext): PointInTime {
  // Most checks are about now: with no query string nothing was asked, and there is nothing
  // for the schema to read (the same answer as reading an empty query, without the parse).
  if (!c.req.url.includes("?")) return {};
  const reading = readPointInTime(c.req.query());
  if (!reading.ok) throw EDGE_PROBLEMS.malformedPointInTime(reading.detail);
  return reading.asked;
}

function register(
  app: Hono<AppEnv>,
  forward: Forward,
  replay: IdempotentReplay,
  operation: ForwardedOperation,
) {
  const path = PROXY_PREFIX + operation.route;
  if (operation.method === "get") {
    app.get(path, (c) => {
      const registration = pathRegistration(c);
      return forward(c, {
        path: operation.upstreamPath(registration),
        pointInTime: registration === "" ? undefined : askedPointInTime(c),
        registrations: [registration],
        rewrite: operation.rewrite,
      });
    });
    return;
  }
  app.post(path, ...bulkBodyChecks, async (c) => {
    // One person's key never replays another's answer: that answer is in their audit, not this one's.
    const ownKey = idempotencyKey(c);
    const key =
      ownKey === undefined ? undefined : `${c.get("user")?.id ?? ""}:${ownKey}`;
    // The validated request, never the browser's bytes: only `registrations` and the point in
    // time asked (decision 041) travel on.
    const { registrations, date, asKnownAt } = await readBulkBody(c);
    const json = JSON.stringify({ registrations, date, asKnownAt });
    const upstreamPath = operation.upstreamPath("");
    const ask = () =>
      forward(c, {
        path: upstreamPath,
        json,
        registrations,
        pointInTime: { date, asKnownAt },
      });
    if (key === undefined) return ask();
    return replay.answer(c, { path: upstreamPath, key, json }, ask);
  });
}

/** The only requests that may carry a body: a POST to one of the bulk checks. */
export function takesBody(c: AppContext): boolean {
  return FORWARDED_OPERATIONS.some(
    (operation) =>
      operation.method === "post" &&
      c.req.method === "POST" &&
      c.req.path === PROXY_PREFIX + operation.route,
  );
}

export function registerApiRoutes(
  app: Hono<AppEnv>,
  forward: Forward,
  replay: IdempotentReplay,
) {
  for (const operation of FORWARDED_OPERATIONS)
    register(app, forward, replay, operation);
  // A wrong method on a forwarded path: one fallback, so Hono keeps its RegExpRouter
  // (decision 047).
  answerWrongMethods(app, `${PROXY_PREFIX}/v1`, (_c, allow) => {
    throw PROXY_PROBLEMS.methodNotAllowed(allow);
  });
  // Where an API client may call the proxy by mistake: anything under /api that is not
  // forwarded, and the service's own /v1 paths (what a client that ignores the OpenAPI
  // document's server calls), in any spelling (`/API/v1`, `/api%2Fv1`, `//api/v1`,
  // `/api;x/v1`...). Answered here and never forwarded, before the web app's fallback can
  // see them: never the app's HTML for these.
  app.all("*", async (c, next) => {
    if (!looksLikeApi(c.req.path)) return next();
    throw PROXY_PROBLEMS.notFound();
  });
}
