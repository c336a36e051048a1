import {
  BULK_MAX_BODY_BYTES,
  BULK_REQUEST_DETAILS,
  isJsonContentType,
  readBulkRequest,
} from "@vics/shared";
import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";
import type { AppContext, AppEnv } from "./app-env.ts";
import { PROXY_PROBLEMS, problemResponse } from "./problem.ts";

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
const limitBody = bodyLimit({
  maxSize: BULK_MAX_BODY_BYTES,
  onError: (c) => problemResponse(c, PROXY_PROBLEMS.payloadTooLarge),
});

export const bulkBodyChecks = [requireJsonBody, limitBody] as const;

/**
 * The body to send upstream: the validated request as JSON, never the browser's bytes, so
 * only `registrations` travels on. Or the proxy's own 400.
 */
export async function validatedBulkBody(
  c: AppContext,
): Promise<{ json: string } | { refused: Response }> {
  const reading = readBulkRequest(await c.req.text());
  if (!reading.ok)
    return {
      refused: problemResponse(
        c,
        PROXY_PROBLEMS.malformedRequest(reading.detail),
      ),
    };
  return { json: JSON.stringify(reading.request) };
}
