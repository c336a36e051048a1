import {
  BULK_MAX_BODY_BYTES,
  BULK_REQUEST_DETAILS,
  isJsonContentType,
  readBulkRequest,
} from "@vics/shared";
import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./app-env.ts";
import { ProblemError, problems } from "./problem-error.ts";

/** Before anything is read: the body must say it is JSON. */
export const requireJsonBody = createMiddleware<AppEnv>(async (c, next) => {
  if (!isJsonContentType(c.req.header("Content-Type")))
    throw problems.malformedRequest(BULK_REQUEST_DETAILS.contentType);
  await next();
});

/**
 * A body that stops arriving (the client hung up, or the server's request timeout cut a slow
 * one off) is the client's 400, not an unhandled error: nobody reads the answer, but the
 * log must not count it as an incident. Found by the slow-body test (slow-request-socket.test.ts).
 */
const incompleteBody = () =>
  problems.malformedRequest(BULK_REQUEST_DETAILS.incomplete);

const bodyLimitOrTooLarge = bodyLimit({
  maxSize: BULK_MAX_BODY_BYTES,
  onError: () => {
    throw problems.payloadTooLarge(BULK_REQUEST_DETAILS.tooLarge);
  },
});

/**
 * 413 over 64 KiB, decided from Content-Length when there is one, else while the body
 * streams in: Hono's bodyLimit stops reading at the limit and never holds more than it.
 * (What the later handlers throw never reaches here: Hono hands it to onError.)
 */
export const limitBulkBody = createMiddleware<AppEnv>(async (c, next) => {
  try {
    return await bodyLimitOrTooLarge(c, next);
  } catch (error) {
    if (error instanceof ProblemError) throw error;
    throw incompleteBody();
  }
});

/** The submitted registrations, or a 400 that names what is wrong with the body. */
export async function bulkRegistrations(c: Context<AppEnv>): Promise<string[]> {
  const text = await c.req.text().catch(() => {
    throw incompleteBody();
  });
  const reading = readBulkRequest(text);
  if (!reading.ok) throw problems.malformedRequest(reading.detail);
  return reading.request.registrations;
}
