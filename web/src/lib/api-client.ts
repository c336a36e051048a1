// THE one API client: every request from the web app goes through apiGet, apiPost, apiPatch, apiPut,
// apiSend, apiDelete, apiGetFile or the *WithRateLimit variants, which also hand back the rate-limit reading of the
// response (the fleet run paces itself by it). An answer saying the session has ended or the
// role may not do this is also told to the app (session-events.ts).
import { randomHex } from "./random-hex.ts";
import {
  CLIENT_HEADER,
  OWN_LIMIT_HEADERS,
  PROXY_PREFIX,
  REQUEST_ID_HEADER,
  parseRateLimitHeaders,
  parseRetryAfter,
  type RateLimitState,
  ApiError,
  codeForStatus,
  readAnswerJson,
} from "@vics/shared";
import type { z } from "zod";
import { problemSchema, type SchemaLoader } from "./lazy-schemas.ts";
import { recordRateLimit } from "./rate-limit-store.ts";
import { roleNeededFor } from "./roles.ts";
import { reportAccessProblem, signInCount } from "./session-events.ts";

/**
 * What the answer must match: a zod schema, or a loader of one (lazy-schemas.ts) for the pages
 * of every visit, which then load zod while their first request is on its way.
 */
export type ResponseSchema<T> = z.ZodType<T> | SchemaLoader<T>;

export interface ApiRequestOptions {
  signal?: AbortSignal;
  /** Extra request headers, e.g. a fleet run's Idempotency-Key (decision 028). */
  headers?: Record<string, string>;
}

/** A parsed body with the response's X-RateLimit-* reading, when it carried one. */
export interface ApiResponse<T> {
  data: T;
  rateLimit?: RateLimitState;
  /** The response's X-Request-Id: the reference a printed record of a check carries. */
  requestId?: string;
}

/**
 * GET a path through the proxy and parse the body with `schema`. A v1 path (`paths.*(...)`) is
 * under /api; the proxy's own routes (`AUTH_PATHS`) are given whole, starting with /api/.
 * Never sends an API key: the proxy adds it upstream, and the browser must never hold one.
 * Every request carries CLIENT_HEADER, which the proxy requires.
 */
export async function apiGet<T>(
  path: string,
  schema: ResponseSchema<T>,
  options: ApiRequestOptions = {},
): Promise<T> {
  return (await apiGetWithRateLimit(path, schema, options)).data;
}

export function apiGetWithRateLimit<T>(
  path: string,
  schema: ResponseSchema<T>,
  options: ApiRequestOptions = {},
): Promise<ApiResponse<T>> {
  return request(path, { method: "GET" }, schema, options);
}

/**
 * POST `body` as JSON (nothing when it is undefined) through the proxy; the answer is parsed as
 * apiGet's.
 */
export async function apiPost<T>(
  path: string,
  body: unknown,
  schema: ResponseSchema<T>,
  options: ApiRequestOptions = {},
): Promise<T> {
  return (await apiPostWithRateLimit(path, body, schema, options)).data;
}

export function apiPostWithRateLimit<T>(
  path: string,
  body: unknown,
  schema: ResponseSchema<T>,
  options: ApiRequestOptions = {},
): Promise<ApiResponse<T>> {
  // No body at all where none is taken (the proxy refuses one: decision 018).
  const shape: RequestShape =
    body === undefined
      ? { method: "POST", headers: options.headers }
      : jsonShape("POST", body, options.headers);
  return request(path, shape, schema, options);
}

/** PATCH `body` as JSON; the answer is parsed as apiGet's. */
export async function apiPatch<T>(
  path: string,
  body: unknown,
  schema: ResponseSchema<T>,
  options: ApiRequestOptions = {},
): Promise<T> {
  const shape = jsonShape("PATCH", body, options.headers);
  const answer = await request(path, shape, schema, options);
  return answer.data;
}

/** PUT `body` as JSON (a saved fleet's new list); the answer is parsed as apiGet's. */
export async function apiPut<T>(
  path: string,
  body: unknown,
  schema: ResponseSchema<T>,
  options: ApiRequestOptions = {},
): Promise<T> {
  const shape = jsonShape("PUT", body, options.headers);
  return (await request(path, shape, schema, options)).data;
}

/**
 * POST for an answer with nothing to read (204), e.g. signing out of every session. `body`,
 * when given, goes as JSON; every error is an ApiError, as for the others.
 */
export async function apiSend(
  path: string,
  body?: unknown,
  options: ApiRequestOptions = {},
): Promise<void> {
  const shape: RequestShape =
    body === undefined
      ? { method: "POST", headers: options.headers }
      : jsonShape("POST", body, options.headers);
  await request(path, shape, undefined, options);
}

/** DELETE a path, for an answer with nothing to read (204); every error is an ApiError. */
export async function apiDelete(
  path: string,
  options: ApiRequestOptions = {},
): Promise<void> {
  const shape: RequestShape = { method: "DELETE", headers: options.headers };
  await request(path, shape, undefined, options);
}

/**
 * GET a file the proxy makes (the audit log's CSV) as it came, `accept` its media type. Fetched,
 * not linked: a link cannot carry CLIENT_HEADER, which the proxy requires on every /api request
 * but the provider's sign-in round trip. A refusal is an ApiError, as for the others.
 */
export async function apiGetFile(
  path: string,
  accept: string,
  options: ApiRequestOptions = {},
): Promise<Blob> {
  const { signal } = options;
  const shape: RequestShape = {
    method: "GET",
    headers: { ...options.headers, Accept: accept },
  };
  const signInsAtSend = signInCount();
  const response = await send(path, shape, signal);
  const rateLimit = parseRateLimitHeaders(response.headers);
  recordOwnBudget(response);
  const requestId = response.headers.get(REQUEST_ID_HEADER) ?? undefined;
  if (!response.ok) {
    const body = await readAnswerJson(response, {
      requestId,
      rateLimit,
      signal,
    });
    throw await refusal(path, response, body, requestId, rateLimit, {
      signal,
      signInsAtSend,
    });
  }
  try {
    return await response.blob();
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw new ApiError({
      status: response.status,
      code: "NETWORK",
      detail: "The connection to VICS broke during the download.",
      requestId,
      rateLimit,
      cause,
    });
  }
}

/**
 * The header's meter shows one budget: the person's own, in look-ups, which the proxy sends
 * on every check (OWN_LIMIT_HEADERS). Never X-RateLimit-*: those are in requests like the one
 * answered (a chunk of 973 vehicles reads "49 of 51"), and a 429 about one vehicle (the
 * sandbox's ER19THR) says the key has none left though the person's checks go on.
 */
function recordOwnBudget(response: Response): void {
  const own = parseRateLimitHeaders(response.headers, OWN_LIMIT_HEADERS);
  if (own) recordRateLimit(own);
}

function jsonShape(
  method: RequestShape["method"],
  body: unknown,
  headers: Record<string, string> = {},
): RequestShape {
  return {
    method,
    body: JSON.stringify(body),
    headers: { ...headers, "Content-Type": "application/json" },
  };
}

interface RequestShape {
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  body?: string;
  headers?: Record<string, string>;
}

/** The URL of a path: the proxy's own routes come whole, v1 paths go under /api. */
export function proxyUrl(path: string): string {
  return path.startsWith(`${PROXY_PREFIX}/`) ? path : PROXY_PREFIX + path;
}

async function request<T>(
  path: string,
  shape: RequestShape,
  schema: ResponseSchema<T>,
  options: ApiRequestOptions,
): Promise<ApiResponse<T>>;
async function request(
  path: string,
  shape: RequestShape,
  schema: undefined,
  options: ApiRequestOptions,
): Promise<ApiResponse<undefined>>;
async function request<T>(
  path: string,
  shape: RequestShape,
  schema: ResponseSchema<T> | undefined,
  options: ApiRequestOptions,
): Promise<ApiResponse<T | undefined>> {
  const { signal } = options;
  const loading = schema === undefined ? undefined : loadSchema(schema);
  const signInsAtSend = signInCount();
  const response = await send(path, shape, signal);
  const rateLimit = parseRateLimitHeaders(response.headers);
  recordOwnBudget(response);
  const requestId = response.headers.get(REQUEST_ID_HEADER) ?? undefined;
  const body = await readAnswerJson(response, { requestId, rateLimit, signal });

  if (!response.ok)
    throw await refusal(path, response, body, requestId, rateLimit, {
      signal,
      signInsAtSend,
    });
  if (loading === undefined) return { data: undefined, rateLimit, requestId };

  const parsed = (await loading).safeParse(body);
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
  return { data: parsed.data, rateLimit, requestId };
}

/**
 * The schema, loaded now when it is a loader, so it arrives with the answer. A schema that
 * cannot load (the network went) is a network failure: the user can try again.
 */
function loadSchema<T>(schema: ResponseSchema<T>): Promise<z.ZodType<T>> {
  if (typeof schema !== "function") return Promise.resolve(schema);
  const loading = schema().catch((cause: unknown) => {
    throw new ApiError({
      status: 0,
      code: "NETWORK",
      detail: "VICS could not load what it needs to read the answer.",
      cause,
    });
  });
  // Never awaited when the request itself fails first: that rejection is not news.
  loading.catch(() => undefined);
  return loading;
}

async function send(
  path: string,
  shape: RequestShape,
  signal?: AbortSignal,
): Promise<Response> {
  try {
    return await fetch(proxyUrl(path), {
      method: shape.method,
      body: shape.body,
      // The proxy answers /api only with CLIENT_HEADER, which a page on another site cannot
      // send (docs/decisions/018-proxy-edges.md).
      headers: {
        Accept: "application/json",
        [CLIENT_HEADER]: "web",
        traceparent: newTraceparent(),
        ...shape.headers,
      },
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

/**
 * A W3C traceparent of its own for each request: a new trace id, and this request as its parent,
 * flagged as not sampled (the web app records nothing). The proxy, when it traces, gives its
 * spans this trace id, so a trace can be found from the browser's request (decision 069).
 * An id of all zeros is invalid, but its odds are nil.
 */
function newTraceparent(): string {
  return `00-${randomHex(16)}-${randomHex(8)}-00`;
}

/** A refusal as an ApiError; one about the user's session or role is told to the app too. */
async function refusal(
  path: string,
  response: Response,
  body: unknown,
  requestId: string | undefined,
  rateLimit: RateLimitState | undefined,
  sent: { signal?: AbortSignal; signInsAtSend: number },
): Promise<ApiError> {
  const error = await problemError(path, response, body, requestId, rateLimit);
  // Only news when it speaks of the session now: not for a request cancelled meanwhile, nor one
  // sent before a sign-in that came while its problem was read (a one-time link's page asks
  // "who is signed in?" and signs in at once; that 401 must not end the new session).
  const current = !sent.signal?.aborted && sent.signInsAtSend === signInCount();
  if (
    current &&
    (error.code === "SIGN_IN_REQUIRED" || error.code === "ROLE_REQUIRED")
  )
    reportAccessProblem(error.code);
  return error;
}

async function problemError(
  path: string,
  response: Response,
  body: unknown,
  headerRequestId: string | undefined,
  rateLimit: RateLimitState | undefined,
): Promise<ApiError> {
  // A problem schema that cannot load reads as no problem document: the status still speaks.
  const schema = await problemSchema().catch(() => undefined);
  const problem = schema?.safeParse(body) ?? { success: false as const };
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
    ownLimit: problem.success ? problem.data.ownLimit : undefined,
    neededRole: roleNeededFor(proxyUrl(path)),
  });
}
