import type { AppContext } from "./app-env.ts";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import {
  BULK_REQUEST_DETAILS,
  PROBLEM_CONTENT_TYPE,
  problemDocument,
  type ProblemCode,
} from "@vics/shared";

export interface ProxyProblem {
  status: ContentfulStatusCode;
  code: ProblemCode;
  detail: string;
}

/** The problems the proxy answers itself, with words a person can act on. */
export const PROXY_PROBLEMS = {
  notFound: {
    status: 404,
    code: "NOT_FOUND",
    // Also what a client that calls /v1/... on the proxy gets: say where the API is.
    detail:
      "This address is not part of the VICS API. On this server the API is under /api/v1 (for example /api/v1/compliance/AB12CDE), and /api/v1/openapi.json describes it.",
  },
  /** `allow`: the Allow header's methods, e.g. "GET, HEAD" or "POST". */
  methodNotAllowed: (allow: string): ProxyProblem => ({
    status: 405,
    code: "METHOD_NOT_ALLOWED",
    detail: `This operation only answers ${allow} requests.`,
  }),
  /** A bulk body refused before anything reaches the service, in the service's own words. */
  malformedRequest: (detail: string): ProxyProblem => ({
    status: 400,
    code: "MALFORMED_REQUEST",
    detail,
  }),
  payloadTooLarge: {
    status: 413,
    code: "PAYLOAD_TOO_LARGE",
    detail: BULK_REQUEST_DETAILS.tooLarge,
  },
  upstreamUnreachable: {
    status: 502,
    code: "BAD_GATEWAY",
    detail:
      "The vehicle service could not be reached. Try again in a moment; if it keeps happening, the service may be down.",
  },
  /** The upstream, or whatever stands in front of it, answered 502 or 503 (decision 017). */
  upstreamUnavailable: {
    status: 502,
    code: "BAD_GATEWAY",
    detail:
      "The vehicle service is unavailable at the moment. Try again in a moment; if it keeps happening, the service may be down.",
  },
  upstreamInvalid: {
    status: 502,
    code: "BAD_GATEWAY",
    detail:
      "The vehicle service sent an answer this app does not understand. Try again; if it keeps happening, report it.",
  },
  upstreamTimeout: {
    status: 504,
    code: "GATEWAY_TIMEOUT",
    detail: "The vehicle service did not answer in time. Try again.",
  },
  internal: {
    status: 500,
    code: "INTERNAL",
    detail: "Something went wrong in the app's server. Try again later.",
  },
} as const satisfies Record<
  string,
  ProxyProblem | ((...args: string[]) => ProxyProblem)
>;

export function problemResponse(
  c: AppContext,
  problem: ProxyProblem,
  headers: Record<string, string> = {},
): Response {
  const body = problemDocument({
    code: problem.code,
    status: problem.status,
    detail: problem.detail,
    requestId: c.get("requestId"),
  });
  return c.body(JSON.stringify(body), problem.status, {
    ...headers,
    "Content-Type": PROBLEM_CONTENT_TYPE,
    "Cache-Control": "no-store",
  });
}
