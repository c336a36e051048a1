import {
  malformedRequest,
  payloadTooLarge,
} from "@vics/shared/server/problem-error";
import type { Context } from "hono";
import type { z } from "zod";

/** Sign-in and admin forms are a few fields: more than this is not one of them. */
export const SMALL_BODY_BYTES = 16 * 1024;

/** A small JSON body checked against `schema`; refusals say what to fix. */
export async function readJsonBody<T extends z.ZodType>(
  c: Context,
  schema: T,
): Promise<z.infer<T>> {
  const type = c.req.header("Content-Type") ?? "";
  if (!/^application\/json\s*(;|$)/i.test(type))
    throw malformedRequest(
      "Send the form as JSON (Content-Type: application/json).",
    );
  const declared = Number(c.req.header("Content-Length") ?? 0);
  if (declared > SMALL_BODY_BYTES)
    throw payloadTooLarge("The form is too large.");
  const text = await c.req.text();
  if (Buffer.byteLength(text) > SMALL_BODY_BYTES)
    throw payloadTooLarge("The form is too large.");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw malformedRequest("The form is not valid JSON.");
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
    throw malformedRequest(`${where}${issue.message}`);
  }
  return parsed.data;
}
