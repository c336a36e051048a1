import {
  malformedRequest,
  payloadTooLarge,
} from "@vics/shared/server/problem-error";
import type { Context } from "hono";
import type { z } from "zod";

/** Sign-in and admin forms are a few fields: more than this is not one of them. */
export const SMALL_BODY_BYTES = 16 * 1024;

/**
 * A JSON body checked against `schema`; refusals say what to fix. Small (a form) unless the
 * route says otherwise: a saved fleet's list is up to FLEET_MAX_BODY_BYTES.
 */
export async function readJsonBody<T extends z.ZodType>(
  c: Context,
  schema: T,
  { maxBytes = SMALL_BODY_BYTES, what = "The form" } = {},
): Promise<z.output<T>> {
  const type = c.req.header("Content-Type") ?? "";
  if (!/^application\/json\s*(;|$)/i.test(type))
    throw malformedRequest(
      "Send the form as JSON (Content-Type: application/json).",
    );
  const declared = Number(c.req.header("Content-Length") ?? 0);
  if (declared > maxBytes) throw payloadTooLarge(`${what} is too large.`);
  const text = await c.req.text();
  if (Buffer.byteLength(text) > maxBytes)
    throw payloadTooLarge(`${what} is too large.`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw malformedRequest(`${what} is not valid JSON.`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const { issues } = parsed.error;
    const issue = issues[0]!;
    // A refinement's words say where themselves ("Vehicle 12 ("AB!!") is not...").
    const where =
      issue.path.length > 0 && issue.code !== "custom"
        ? `${issue.path.join(".")}: `
        : "";
    const more =
      issues.length > 1
        ? ` (and ${issues.length - 1} more ${issues.length === 2 ? "problem" : "problems"})`
        : "";
    throw malformedRequest(`${where}${issue.message}${more}`);
  }
  return parsed.data;
}
