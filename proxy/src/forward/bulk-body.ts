import {
  BULK_MAX_BODY_BYTES,
  BULK_REQUEST_DETAILS,
  isJsonContentType,
  readBulkRequest,
} from "@vics/shared";
import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";
import type { AppContext, AppEnv } from "../http/app-env.ts";
import { PROXY_PROBLEMS, problemResponse } from "../http/problem.ts";

/**
 * A bulk check's body, refused here when malformed so it costs no upstream quota, in the
 * service's own words (from @vics/shared). The order is the service's: content type, then
 * size, then JSON, then shape.
 */

const requireJsonBody = createMiddleware<AppEnv>(async (c, next) => {
  if (!isJsonContentType(c.req.header("Content-Type")))
    return problemResponse(
      c,
      PROXY_PROBLEMS.malformedRequest(BULK_REQUEST_DETAILS.contentType),
    );
  await next();
});

// From Content-Length when there is one, else while the body streams in: it never holds
// more than the limit.
const bodyLimitOr413 = bodyLimit({
  maxSize: BULK_MAX_BODY_BYTES,
  onError: (c) => problemResponse(c, PROXY_PROBLEMS.payloadTooLarge),
});

/**
 * A body that stops arriving (the browser hung up, or the server's request timeout cut a slow
 * one off) is the client's 400, not an unexpected error: nobody reads the answer, but the log
 * must not count it as an incident (slow-request-socket.test.ts). What the later handlers
 * throw never reaches here: Hono hands it to onError.
 */
const incompleteBody = (c: AppContext) =>
  problemResponse(
    c,
    PROXY_PROBLEMS.malformedRequest(BULK_REQUEST_DETAILS.incomplete),
  );

const limitBody = createMiddleware<AppEnv>(async (c, next) => {
  try {
    return await bodyLimitOr413(c, next);
  } catch {
    return incompleteBody(c);
  }
});

export const bulkBodyChecks = [requireJsonBody, limitBody] as const;

/**
 * The body to send upstream: the validated request as JSON, never the browser's bytes, so
 * only `registrations` travels on. Or the proxy's own 400.
 */
export async function validatedBulkBody(
  c: AppContext,
): Promise<
  { json: string; registrations: readonly string[] } | { refused: Response }
> {
  let text: string;
  try {
    text = await c.req.text();
  } catch {
    return { refused: incompleteBody(c) };
  }
  const reading = readBulkRequest(text);
  if (!reading.ok)
    return {
      refused: problemResponse(
        c,
        PROXY_PROBLEMS.malformedRequest(reading.detail),
      ),
    };
  return {
    json: JSON.stringify(reading.request),
    registrations: reading.request.registrations,
  };
}
