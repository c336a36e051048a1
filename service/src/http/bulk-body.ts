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
import { problems } from "./problem-error.ts";

/** Before anything is read: the body must say it is JSON. */
export const requireJsonBody = createMiddleware<AppEnv>(async (c, next) => {
  if (!isJsonContentType(c.req.header("Content-Type")))
    throw problems.malformedRequest(BULK_REQUEST_DETAILS.contentType);
  await next();
});

/**
 * 413 over 64 KiB, decided from Content-Length when there is one, else while the body
 * streams in: Hono's bodyLimit stops reading at the limit and never holds more than it.
 */
export const limitBulkBody = bodyLimit({
  maxSize: BULK_MAX_BODY_BYTES,
  onError: () => {
    throw problems.payloadTooLarge(BULK_REQUEST_DETAILS.tooLarge);
  },
});

/** The submitted registrations, or a 400 that names what is wrong with the body. */
export async function bulkRegistrations(c: Context<AppEnv>): Promise<string[]> {
  const reading = readBulkRequest(await c.req.text());
  if (!reading.ok) throw problems.malformedRequest(reading.detail);
  return reading.request.registrations;
}
