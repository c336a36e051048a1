import {
  malformedRequest,
  payloadTooLarge,
  ProblemError,
} from "@vics/server-kit/problem-error";
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { z } from "zod";

/** Sign-in and admin forms are a few fields: more than this is not one of them. */
export const SMALL_BODY_BYTES = 16 * 1024;

/** How much a route takes, and what the body is called in its refusal ("The list"). */
export interface BodyLimit {
  maxBytes: number;
  what: string;
}

export const FORM_BODY: BodyLimit = {
  maxBytes: SMALL_BODY_BYTES,
  what: "The form",
};

/** A route's body limit middleware, carrying the limit it holds (for the tests that list them). */
export type BodyLimitMiddleware = MiddlewareHandler & { limit: BodyLimit };

/** The requests whose body a route's limit has counted (and holds, within it). */
const limited = new WeakSet<Request>();

const MIB = 1024 * 1024;
const size = (bytes: number) =>
  bytes >= MIB
    ? `${+(bytes / MIB).toFixed(1)} MB`
    : `${+(bytes / 1024).toFixed(1)} KB`;

const tooLarge = ({ maxBytes, what }: BodyLimit) =>
  payloadTooLarge(`${what} is too large: it may be at most ${size(maxBytes)}.`);

/**
 * A route's body limit, declared where the route is registered, before its handler: the body is
 * counted while it streams in (Hono's bodyLimit, or the declared Content-Length) and cut off
 * with a 413 at the limit, so no route holds more than its limit of anyone's body, signed in or
 * not. A body that stops arriving (the client hung up) is the client's 400, not an incident.
 */
export function limitBody(limit: BodyLimit): BodyLimitMiddleware {
  const counted = bodyLimit({
    maxSize: limit.maxBytes,
    onError: () => {
      throw tooLarge(limit);
    },
  });
  const middleware: MiddlewareHandler = async (c, next) => {
    try {
      return await counted(c, () => {
        limited.add(c.req.raw);
        return next();
      });
    } catch (error) {
      // What a later handler throws is handed to onError by Hono and never comes back here.
      if (error instanceof ProblemError) throw error;
      throw malformedRequest(
        `${limit.what} did not arrive whole: send it again.`,
      );
    }
  };
  return Object.assign(middleware, { limit });
}

/** A form's limit: every route that takes a small body, or none that it reads. */
export const formBody = limitBody(FORM_BODY);

/**
 * A JSON body checked against `schema`; refusals say what to fix. Only on a route that declared
 * its limit (limitBody, before the handler), which has already read the body within it: a
 * route that forgot would read a body of any size, so that is a fault, not a request.
 */
export async function readJsonBody<T extends z.ZodType>(
  c: Context,
  schema: T,
  { what = FORM_BODY.what }: { what?: string } = {},
): Promise<z.output<T>> {
  if (!limited.has(c.req.raw))
    throw new Error(
      `${c.req.method} ${c.req.path} reads a body without declaring its limit (limitBody).`,
    );
  const type = c.req.header("Content-Type") ?? "";
  if (!/^application\/json\s*(;|$)/i.test(type))
    throw malformedRequest(
      "Send the form as JSON (Content-Type: application/json).",
    );
  const text = await c.req.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw malformedRequest(`${what} is not valid JSON.`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw bodyRefusal(parsed.error.issues);
  return parsed.data;
}

/** What a schema found wrong with a body, as a 400 (zod's issues, or any alike). */
export interface BodyIssue {
  path: PropertyKey[];
  message: string;
  code?: string;
}

/** A body's refusal in words: the first problem, where it is, and how many more there are. */
export function bodyRefusal(issues: readonly BodyIssue[]): ProblemError {
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
  return malformedRequest(`${where}${issue.message}${more}`);
}
