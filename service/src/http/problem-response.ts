import {
  type Problem,
  PROBLEM_CONTENT_TYPE,
  type ProblemCode,
  problemDocument,
} from "@vics/shared";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "./app-env.ts";

/** Renders the RFC 9457 problem document; headers set earlier (request id, rate limit) stay. */
export function problemResponse(
  c: Context<AppEnv>,
  status: ContentfulStatusCode,
  code: ProblemCode,
  detail: string,
  headers: Record<string, string> = {},
  extensions: Pick<Problem, "suggestions"> = {},
): Response {
  const problem = problemDocument({
    ...extensions,
    code,
    status,
    detail,
    requestId: c.get("requestId"),
  });
  return c.body(JSON.stringify(problem), status, {
    ...headers,
    "Content-Type": PROBLEM_CONTENT_TYPE,
  });
}
