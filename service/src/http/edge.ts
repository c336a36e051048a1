import { REQUEST_ID_HEADER, RATE_LIMIT_HEADERS } from "@vics/shared";
import { logRequest, routeTemplate } from "@vics/server-kit/access-log";
import { requestIdFor } from "@vics/server-kit/request-id";
import type { RateLimitDecision } from "@vics/server-kit/rate-limiter";
import type { Context, ErrorHandler } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppDeps } from "../app-deps.ts";
import type { AppEnv } from "./app-env.ts";
import { problems } from "./problems.ts";
import { meterRequest } from "./rate-limit.ts";

export interface EdgeOptions {
  /** Routes (as registered) that are never counted: the health and readiness probes. */
  unmetered: ReadonlySet<string>;
  /**
   * Routes whose answers are made with `jsonAnswer`, which writes the edge's headers itself;
   * for every other route they are set on the context before its handlers run.
   */
  answeredDirectly: ReadonlySet<string>;
  /** The app's onError, for a request the edge itself refuses (429, or a failed key check). */
  onError: ErrorHandler<AppEnv>;
}

/**
 * Every request's edge, in one middleware instead of three (request id, access log, rate
 * limit): the request id is the client's when plain, else a new one; the request is counted
 * (meterRequest) unless its route is a probe; every answer carries the id and the counted
 * decision's headers; and one access log line is written (logRequest) once it is answered,
 * whatever it was.
 */
export function requestEdge(
  deps: Pick<
    AppDeps,
    | "store"
    | "rateLimiter"
    | "clientAddress"
    | "wrongKeyBudget"
    | "logger"
    | "hashRegistration"
    | "metrics"
  >,
  options: EdgeOptions,
) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const started = performance.now();
    deps.metrics?.started();
    const id = requestIdFor(c.req.header(REQUEST_ID_HEADER));
    c.set("requestId", id);
    const route = routeTemplate(c);
    // Until the limit is decided, the answer's only header of the edge's is its id.
    let placed = false;
    try {
      if (options.unmetered.has(route)) c.header(REQUEST_ID_HEADER, id);
      else {
        const { decision, failure } = await meterRequest(deps, c);
        placed = true;
        const headers = edgeHeaders(id, decision);
        if (options.answeredDirectly.has(route) && decision.allowed && !failure)
          c.set(PENDING, headers);
        else setHeaders(c, headers);
        if (!decision.allowed) throw problems.rateLimited(decision);
        if (failure) throw failure.error;
      }
      await next();
      // An answer that did not write them (none should) still gets the headers, late.
      const pending = takePendingHeaders(c);
      if (pending) setHeaders(c, pending);
    } catch (error) {
      // As Hono would handle it, had the edge been three middlewares; then the line is logged.
      if (!(error instanceof Error)) throw error;
      // The limit could not be counted (Redis is down): no limit is claimed, the id is.
      if (!placed) c.header(REQUEST_ID_HEADER, id);
      c.error = error;
      c.res = await options.onError(error, c);
    }
    logRequest(
      deps.logger,
      deps.hashRegistration,
      c,
      started,
      route,
      deps.metrics,
    );
  });
}

/** Where a directly answered route finds the headers it must write. */
const PENDING = "edgeHeaders";

/**
 * The request id and the rate limit's headers, as a plain object: named as Headers would name
 * them (lower case, in its sorted order), so the answer's bytes are those it had before.
 */
function edgeHeaders(
  id: string,
  decision: RateLimitDecision,
): Record<string, string> {
  return {
    [LIMIT]: String(decision.limit),
    [REMAINING]: String(decision.remaining),
    [RESET]: String(decision.resetSeconds),
    [ID]: id,
  };
}

const LIMIT = RATE_LIMIT_HEADERS.limit.toLowerCase();
const REMAINING = RATE_LIMIT_HEADERS.remaining.toLowerCase();
const RESET = RATE_LIMIT_HEADERS.reset.toLowerCase();
const ID = REQUEST_ID_HEADER.toLowerCase();

function setHeaders(c: Context, headers: Record<string, string>): void {
  for (const name in headers) c.header(name, headers[name]);
}

/**
 * The edge's headers when the route was left to write them and has not yet: taken, so only one
 * answer writes them.
 */
function takePendingHeaders(
  c: Context<AppEnv>,
): Record<string, string> | undefined {
  const pending = c.get(PENDING);
  if (pending) c.set(PENDING, undefined);
  return pending;
}

/**
 * The answer `body` as JSON with the edge's headers, as `c.json` would make it, but with its
 * headers as a plain object: Hono would build a Headers object for them, which
 * @hono/node-server then turns back into an object (both were a few percent of a check).
 */
export function jsonAnswer(c: Context<AppEnv>, body: unknown): Response {
  const headers = takePendingHeaders(c);
  if (!headers) return c.json(body);
  return new Response(JSON.stringify(body), {
    headers: { "content-type": "application/json", ...headers },
  });
}

/** onError, with the edge's headers written first when the route was left to write them. */
export function withEdgeHeaders(
  onError: ErrorHandler<AppEnv>,
): ErrorHandler<AppEnv> {
  return (error, c) => {
    const pending = takePendingHeaders(c);
    if (pending) setHeaders(c, pending);
    return onError(error, c);
  };
}
