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

export type Forward = (c: AppContext, path: string) => Promise<Response>;

const CONTRACT_MEDIA_TYPES = new Set([
  "application/json",
  PROBLEM_CONTENT_TYPE,
]);

/** The service speaks JSON or problem+json, never redirects; anything else is a fault. */
function speaksContract(status: number, headers: Headers, body: ArrayBuffer) {
  if (status < 200 || (status >= 300 && status < 400)) return false;
  const mediaType = headers.get("Content-Type")?.split(";")[0]?.trim();
  if (!mediaType || !CONTRACT_MEDIA_TYPES.has(mediaType.toLowerCase()))
    return false;
  try {
    JSON.parse(new TextDecoder().decode(body));
    return true;
  } catch {
    return false;
  }
}

export function createForwarder(options: ForwardOptions): Forward {
  const base = options.upstreamUrl.replace(/\/+$/, "");
  const { logger } = options;

  return async (c, path) => {
    const requestId = c.get("requestId");
    const outcome = await callUpstream(
      options.fetch,
      base + path,
      {
        method: "GET",
        headers: upstreamRequestHeaders(
          c.req.raw.headers,
          options.apiKey,
          requestId,
        ),
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
    const { status, headers, body } = outcome;
    if (!speaksContract(status, headers, body)) {
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
