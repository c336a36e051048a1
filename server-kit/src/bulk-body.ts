/**
 * A bulk check's body, checked the same way by the service and the proxy (decision 014): the
 * content type, then the size, then the JSON, then its shape and items (readBulkRequest), each
 * refusal a ProblemError in the words of BULK_REQUEST_DETAILS. The proxy checks first, so a
 * malformed body costs its key nothing; the service checks again for any other client.
 */
import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";
import {
  BULK_MAX_BODY_BYTES,
  BULK_REQUEST_DETAILS,
  type BulkRequest,
  isJsonContentType,
  readBulkRequest,
} from "@vics/shared";
import {
  malformedRequest,
  payloadTooLarge,
  ProblemError,
} from "./problem-error.ts";

/** Before anything is read: the body must say it is JSON. */
export const requireJsonBody = createMiddleware(async (c, next) => {
  if (!isJsonContentType(c.req.header("Content-Type")))
    throw malformedRequest(BULK_REQUEST_DETAILS.contentType);
  await next();
});

/**
 * A body that stops arriving (the client hung up, or the server's request timeout cut a slow
 * one off) is the client's 400, not an unhandled error: nobody reads the answer, but the log
 * must not count it as an incident. Found by the slow-request socket tests.
 */
const incompleteBody = () => malformedRequest(BULK_REQUEST_DETAILS.incomplete);

const bodyLimitOrTooLarge = bodyLimit({
  maxSize: BULK_MAX_BODY_BYTES,
  onError: () => {
    throw payloadTooLarge(BULK_REQUEST_DETAILS.tooLarge);
  },
});

/**
 * 413 over 64 KiB, decided from Content-Length when there is one, else while the body
 * streams in: Hono's bodyLimit stops reading at the limit and never holds more than it.
 * (What the later handlers throw never reaches here: Hono hands it to onError.)
 */
export const limitBulkBody = createMiddleware(async (c, next) => {
  try {
    return await bodyLimitOrTooLarge(c, next);
  } catch (error) {
    if (error instanceof ProblemError) throw error;
    throw incompleteBody();
  }
});

/** Both, in the order of decision 014: for a bulk route, before its handler. */
export const bulkBodyChecks = [requireJsonBody, limitBulkBody] as const;

/** The validated request (only `registrations` kept), or a 400 naming what is wrong. */
export async function readBulkBody(c: Context): Promise<BulkRequest> {
  const text = await c.req.text().catch(() => {
    throw incompleteBody();
  });
  const reading = readBulkRequest(text);
  if (!reading.ok) throw malformedRequest(reading.detail);
  return reading.request;
}
