import type { Hono, MiddlewareHandler } from "hono";
import { TrieRouter } from "hono/router/trie-router";
import {
  PROXY_PREFIX,
  parseRegistration,
  type PointInTime,
  readPointInTime,
} from "@vics/shared";
import { readBulkBody } from "@vics/server-kit/bulk-body";
import { answerWrongMethods } from "@vics/server-kit/method-not-allowed";
import type { AppContext, AppEnv } from "../http/app-env.ts";
import { EDGE_PROBLEMS } from "../edges/edge-problems.ts";
import { looksLikeApi } from "../edges/path-spellings.ts";
import type { Forward } from "./forward.ts";
import { type ForwardedOperation, responseOf } from "./operation.ts";
import { PROXY_PROBLEMS } from "../http/problem.ts";
import {
  type IdempotentReplay,
  idempotencyKey,
} from "./replay/idempotent-replay.ts";
import type { TeamPorts } from "../ports.ts";

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

/**
 * The route's own guards: its role (every /api route already needs a signed-in user, so
 * "staff" adds nothing), then its body's checks.
 */
function guards(
  operation: ForwardedOperation,
  team: TeamPorts,
): MiddlewareHandler<AppEnv>[] {
  return [
    ...(operation.role === "staff" ? [] : [team.requireRole(operation.role)]),
    ...(operation.body ?? []),
  ];
}

/** What a route answers: the response, its parsed answer read by the stages above it. */
function register(
  app: Hono<AppEnv>,
  forward: Forward,
  replay: IdempotentReplay,
  operation: ForwardedOperation,
  team: TeamPorts,
) {
  const path = PROXY_PREFIX + operation.route;
  for (const guard of guards(operation, team))
    app.on(operation.method.toUpperCase(), path, guard);
  if (operation.method === "get") {
    app.get(path, (c) => {
      const registration = pathRegistration(c);
      return forward(c, operation, {
        path: operation.upstreamPath(registration),
        route: operation.route,
        pointInTime: registration === "" ? undefined : askedPointInTime(c),
        registrations: [registration],
      }).then(responseOf);
    });
    return;
  }
  app.post(path, async (c) => {
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
      forward(c, operation, {
        path: upstreamPath,
        route: operation.route,
        json,
        registrations,
        pointInTime: { date, asKnownAt },
      }).then(responseOf);
    if (key === undefined) return ask();
    return replay.answer(c, { path: upstreamPath, key, json }, ask);
  });
}

/**
 * Which forwarded requests may carry a body, derived from the operations registered: those
 * that declare one (the bulk checks' POSTs). Matched by Hono's own router, as the app matches
 * them; asked only of a request that says it has a body.
 */
export function forwardedTakeBody(
  operations: readonly ForwardedOperation[],
): (c: AppContext) => boolean {
  const router = new TrieRouter<true>();
  for (const { method, route, body } of operations)
    if (body) router.add(method.toUpperCase(), PROXY_PREFIX + route, true);
  return (c) => router.match(c.req.method, c.req.path)[0].length > 0;
}

export function registerApiRoutes(
  app: Hono<AppEnv>,
  forward: Forward,
  replay: IdempotentReplay,
  operations: readonly ForwardedOperation[],
  team: TeamPorts,
) {
  for (const operation of operations)
    register(app, forward, replay, operation, team);
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
