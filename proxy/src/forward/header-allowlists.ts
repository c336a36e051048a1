import {
  API_KEY_HEADER,
  RATE_LIMIT_HEADERS,
  REQUEST_ID_HEADER,
  RETRY_AFTER_HEADER,
} from "@vics/shared";

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

/** `jsonBody`: the proxy sends a body it wrote itself, so the type is its own, not the browser's. */
export function upstreamRequestHeaders(
  apiKey: string,
  requestId: string,
  jsonBody = false,
): Headers {
  return new Headers({
    Accept: UPSTREAM_ACCEPT,
    [API_KEY_HEADER]: apiKey,
    // Already checked by the request id middleware: a client's id is reused only when sane.
    [REQUEST_ID_HEADER]: requestId,
    ...(jsonBody && { "Content-Type": "application/json" }),
  });
}

const PASSED_BACK = [
  "Content-Type",
  RATE_LIMIT_HEADERS.limit,
  RATE_LIMIT_HEADERS.remaining,
  RATE_LIMIT_HEADERS.reset,
  RETRY_AFTER_HEADER,
  REQUEST_ID_HEADER,
] as const;

export function browserResponseHeaders(upstream: Headers): Headers {
  const headers = new Headers();
  for (const name of PASSED_BACK) {
    const value = upstream.get(name);
    if (value !== null) headers.set(name, value);
  }
  return headers;
}
