import type { Context } from "hono";
import { PROBLEM_CONTENT_TYPE, problemDocument } from "@vics/shared";
import type { ProblemError } from "./problem-error.ts";
import type { ServerEnv } from "./server-env.ts";

/**
 * Renders the RFC 9457 problem document of `problem`. Headers set earlier (the request id,
 * the rate limit, the security headers) stay; `headers` are the app's own on every problem.
 */
export function problemResponse(
  c: Context<ServerEnv>,
  problem: ProblemError,
  headers: Record<string, string> = {},
): Response {
  const document = problemDocument({
    ...problem.extensions,
    code: problem.code,
    status: problem.status,
    detail: problem.message,
    requestId: c.get("requestId"),
  });
  return c.body(JSON.stringify(document), problem.status, {
    ...problem.headers,
    ...headers,
    "Content-Type": PROBLEM_CONTENT_TYPE,
  });
}
