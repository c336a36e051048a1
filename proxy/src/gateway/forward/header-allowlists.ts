import {
  API_KEY_HEADER,
  RATE_LIMIT_HEADERS,
  REQUEST_ID_HEADER,
  RETRY_AFTER_HEADER,
} from "@vics/shared";
import type { ReplyHeaders } from "../upstream/upstream-call.ts";

/**
 * Headers cross the proxy only by allowlist, in both directions. Anything else the
 * browser sends (its own X-API-Key, cookies, Authorization) or the service answers
 * (Set-Cookie, Server, ...) stops here.
 */

/**
 * The proxy's own Accept, whatever the browser sent: it takes only JSON back. A browser's
 * Accept of up to 16 KiB fits the proxy, but with the key and request id beside it pushed the
 * service's request over the service's own header limit (431, the browser's 502).
 */
export const UPSTREAM_ACCEPT = "application/json, application/problem+json";

/**
 * `jsonBody`: the proxy sends a body it wrote itself, so the type is its own, not the browser's.
 * `traceparent`: the proxy's client span's, or the browser's passed on while the proxy traces
 * nothing (the tracing kit's startClientCall says which). A plain record, names in lower case: the undici
 * pool sends it as it is, with no Headers object built and taken apart again for every request.
 */
export function upstreamRequestHeaders(
  apiKey: string,
  requestId: string,
  jsonBody = false,
  traceparent?: string,
): Record<string, string> {
  const headers: Record<string, string> = {
    accept: UPSTREAM_ACCEPT,
    [API_KEY_HEADER_LOWER]: apiKey,
    // Already checked by the request id middleware: a client's id is reused only when sane.
    [REQUEST_ID_HEADER_LOWER]: requestId,
  };
  if (jsonBody) headers["content-type"] = "application/json";
  if (traceparent !== undefined) headers.traceparent = traceparent;
  return headers;
}

const API_KEY_HEADER_LOWER = API_KEY_HEADER.toLowerCase();
const REQUEST_ID_HEADER_LOWER = REQUEST_ID_HEADER.toLowerCase();

/** Names in lower case, as a Headers object would give them back. */
const PASSED_BACK = [
  "Content-Type",
  RATE_LIMIT_HEADERS.limit,
  RATE_LIMIT_HEADERS.remaining,
  RATE_LIMIT_HEADERS.reset,
  RETRY_AFTER_HEADER,
  REQUEST_ID_HEADER,
].map((name) => name.toLowerCase());

/** The allowlisted headers of an upstream answer, as a record with names in lower case. */
export function browserResponseHeaders(
  upstream: ReplyHeaders,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of PASSED_BACK) {
    const value = upstream.get(name);
    if (value !== null) headers[name] = value;
  }
  return headers;
}
