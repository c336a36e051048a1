import { malformedRequest, ProblemError } from "@vics/server-kit/problem-error";

/**
 * The problems the proxy answers itself, with words a person can act on. Handlers and
 * middlewares throw them; app.ts's onError renders them, with Cache-Control: no-store.
 */
export const PROXY_PROBLEMS = {
  notFound: () =>
    new ProblemError(
      404,
      "NOT_FOUND",
      // Also what a client that calls /v1/... on the proxy gets: say where the API is.
      "This address is not part of the VICS API. On this server the API is under /api/v1 (for example /api/v1/compliance/AB12CDE), and /api/v1/openapi.json describes it.",
    ),
  /** `allow`: the Allow header's methods, e.g. "GET, HEAD" or "POST". */
  methodNotAllowed: (allow: string) =>
    new ProblemError(
      405,
      "METHOD_NOT_ALLOWED",
      `This operation only answers ${allow} requests.`,
      { Allow: allow },
    ),
  /** A request the proxy refuses before anything reaches the service (a bad Idempotency-Key). */
  malformedRequest,
  upstreamUnreachable: () =>
    new ProblemError(
      502,
      "BAD_GATEWAY",
      "The vehicle service could not be reached. Try again in a moment; if it keeps happening, the service may be down.",
    ),
  /** The upstream, or whatever stands in front of it, answered 502 or 503 (decision 017). */
  upstreamUnavailable: () =>
    new ProblemError(
      502,
      "BAD_GATEWAY",
      "The vehicle service is unavailable at the moment. Try again in a moment; if it keeps happening, the service may be down.",
    ),
  upstreamInvalid: () =>
    new ProblemError(
      502,
      "BAD_GATEWAY",
      "The vehicle service sent an answer this app does not understand. Try again; if it keeps happening, report it.",
    ),
  upstreamTimeout: () =>
    new ProblemError(
      504,
      "GATEWAY_TIMEOUT",
      "The vehicle service did not answer in time. Try again.",
    ),
  internal: () =>
    new ProblemError(
      500,
      "INTERNAL",
      "Something went wrong in the app's server. Try again later.",
    ),
};
