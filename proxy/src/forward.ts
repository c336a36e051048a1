import type { ContentfulStatusCode } from "hono/utils/http-status";
import { PROBLEM_CONTENT_TYPE } from "@vics/shared";
import type { AppContext } from "./app-env.ts";
import {
  browserResponseHeaders,
  upstreamRequestHeaders,
} from "./header-allowlists.ts";
import type { Logger } from "./logger.ts";
import { PROXY_PROBLEMS, problemResponse } from "./problem.ts";
import { routeTemplate } from "./request-log.ts";
import { callUpstream, type UpstreamFetch } from "./upstream-call.ts";

export interface ForwardOptions {
  upstreamUrl: string;
  apiKey: string;
  fetch: UpstreamFetch;
  timeoutMs: number;
  logger: Logger;
}

/**
 * Rewrites the JSON of a 200 answer before it goes back (the OpenAPI document's copy).
 * `undefined` means the answer is outside the contract: a 502, as for broken JSON.
 */
export type RewriteAnswer = (json: unknown) => unknown;

/** What to ask the upstream for: a GET, or a POST with the JSON the proxy validated. */
export interface UpstreamRequest {
  path: string;
  /** A JSON body makes the request a POST. */
  json?: string;
  rewrite?: RewriteAnswer;
}

export type Forward = (
  c: AppContext,
  upstream: UpstreamRequest,
) => Promise<Response>;

const CONTRACT_MEDIA_TYPES = new Set([
  "application/json",
  PROBLEM_CONTENT_TYPE,
]);

/**
 * The body to pass back: the service speaks JSON or problem+json and never redirects.
 * A 200 answer is rewritten when asked. Undefined when the answer is outside the contract.
 */
function contractBody(
  {
    status,
    headers,
    body,
  }: { status: number; headers: Headers; body: ArrayBuffer },
  rewrite: RewriteAnswer | undefined,
): ArrayBuffer | string | undefined {
  if (status < 200 || (status >= 300 && status < 400)) return undefined;
  const mediaType = headers.get("Content-Type")?.split(";")[0]?.trim();
  if (!mediaType || !CONTRACT_MEDIA_TYPES.has(mediaType.toLowerCase()))
    return undefined;
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(body));
  } catch {
    return undefined;
  }
  if (!rewrite || status !== 200) return body;
  const rewritten = rewrite(json);
  return rewritten === undefined ? undefined : JSON.stringify(rewritten);
}

export function createForwarder(options: ForwardOptions): Forward {
  const base = options.upstreamUrl.replace(/\/+$/, "");
  const { logger } = options;

  return async (c, { path, json, rewrite }) => {
    const requestId = c.get("requestId");
    const outcome = await callUpstream(
      options.fetch,
      base + path,
      {
        method: json === undefined ? "GET" : "POST",
        headers: upstreamRequestHeaders(
          c.req.raw.headers,
          options.apiKey,
          requestId,
          json !== undefined,
        ),
        body: json,
        // A redirect would carry the key to wherever it points; the service never sends one.
        redirect: "manual",
      },
      options.timeoutMs,
    );
    // The route's template, not the path: the path holds a registration number.
    const context = { requestId, route: routeTemplate(c) };
    if (outcome.kind === "timeout") {
      logger.warn("upstream timed out", {
        ...context,
        timeoutMs: options.timeoutMs,
      });
      return problemResponse(c, PROXY_PROBLEMS.upstreamTimeout);
    }
    if (outcome.kind === "unreachable") {
      logger.warn("upstream unreachable", {
        ...context,
        reason: outcome.reason,
      });
      return problemResponse(c, PROXY_PROBLEMS.upstreamUnreachable);
    }
    const { status, headers } = outcome;
    const body = contractBody(outcome, rewrite);
    if (body === undefined) {
      logger.warn("upstream answer outside the contract", {
        ...context,
        status,
        contentType: headers.get("Content-Type") ?? "none",
      });
      return problemResponse(c, PROXY_PROBLEMS.upstreamInvalid);
    }
    if (status === 401) {
      logger.warn(
        "the vehicle service rejected the proxy's API key: check UPSTREAM_API_KEY or UPSTREAM_API_KEY_FILE",
        context,
      );
    }
    const passed = browserResponseHeaders(headers);
    passed.set("Cache-Control", "no-store");
    return c.body(
      body,
      status as ContentfulStatusCode,
      Object.fromEntries(passed),
    );
  };
}
