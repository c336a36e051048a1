// THE one API client: every request from the web app goes through apiGet.
import {
  PROXY_PREFIX,
  ProblemSchema,
  REQUEST_ID_HEADER,
  parseRateLimitHeaders,
  parseRetryAfter,
  type RateLimitState,
} from "@vics/shared";
import type { z } from "zod";
import { ApiError, codeForStatus } from "./api-error.ts";
import { recordRateLimit } from "./rate-limit-store.ts";

interface ApiGetOptions {
  signal?: AbortSignal;
}

/**
 * GET a `paths.*(...)` value through the proxy and parse the body with `schema`.
 * Never sends an API key: the proxy adds it upstream, and the browser must never hold one.
 */
export async function apiGet<T>(
  path: string,
  schema: z.ZodType<T>,
  options: ApiGetOptions = {},
): Promise<T> {
  const response = await send(path, options.signal);
  const rateLimit = parseRateLimitHeaders(response.headers);
  if (rateLimit) recordRateLimit(rateLimit);
  const requestId = response.headers.get(REQUEST_ID_HEADER) ?? undefined;
  const body = await readJson(response, options.signal);

  if (!response.ok) throw problemError(response, body, requestId, rateLimit);

  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new ApiError({
      status: response.status,
      code: "INVALID_RESPONSE",
      detail: "The vehicle service sent an answer VICS could not read.",
      requestId,
      rateLimit,
      cause: parsed.error,
    });
  }
  return parsed.data;
}

async function send(path: string, signal?: AbortSignal): Promise<Response> {
  try {
    return await fetch(PROXY_PREFIX + path, {
      headers: { Accept: "application/json" },
      signal,
    });
  } catch (cause) {
    // A cancelled query is not a failure to show: let React Query see the abort.
    if (signal?.aborted) throw cause;
    throw new ApiError({
      status: 0,
      code: "NETWORK",
      detail: "VICS could not reach the vehicle service.",
      cause,
    });
  }
}

/** The body as JSON, or undefined when it is empty or not JSON. */
async function readJson(
  response: Response,
  signal?: AbortSignal,
): Promise<unknown> {
  try {
    const text = await response.text();
    return text === "" ? undefined : (JSON.parse(text) as unknown);
  } catch (cause) {
    if (signal?.aborted) throw cause;
    return undefined;
  }
}

function problemError(
  response: Response,
  body: unknown,
  headerRequestId: string | undefined,
  rateLimit: RateLimitState | undefined,
): ApiError {
  const problem = ProblemSchema.safeParse(body);
  const retryAfter =
    parseRetryAfter(response.headers) ??
    (response.status === 429 ? rateLimit?.resetSeconds : undefined);
  return new ApiError({
    status: response.status,
    code: problem.success ? problem.data.code : codeForStatus(response.status),
    detail: problem.success
      ? problem.data.detail
      : `The vehicle service answered with an error (${response.status}).`,
    requestId: problem.success ? problem.data.requestId : headerRequestId,
    retryAfterSeconds: retryAfter,
    rateLimit,
    suggestions: problem.success ? problem.data.suggestions : undefined,
  });
}
