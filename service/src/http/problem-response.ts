import {
  type Problem,
  PROBLEM_CONTENT_TYPE,
  type ProblemCode,
  problemType,
} from "@vics/shared";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "./app-env.ts";

const TITLES: Record<ProblemCode, string> = {
  INVALID_REGISTRATION: "Invalid registration",
  MALFORMED_REQUEST: "Malformed request",
  PAYLOAD_TOO_LARGE: "Payload too large",
  UNAUTHORIZED: "Unauthorized",
  VEHICLE_NOT_FOUND: "Vehicle not found",
  RATE_LIMITED: "Too many requests",
  NOT_FOUND: "Not found",
  METHOD_NOT_ALLOWED: "Method not allowed",
  INTERNAL: "Internal server error",
  BAD_GATEWAY: "Bad gateway",
  GATEWAY_TIMEOUT: "Gateway timeout",
};

/** Renders the RFC 9457 problem document; headers set earlier (request id, rate limit) stay. */
export function problemResponse(
  c: Context<AppEnv>,
  status: ContentfulStatusCode,
  code: ProblemCode,
  detail: string,
  headers: Record<string, string> = {},
): Response {
  const problem: Problem = {
    type: problemType(code),
    title: TITLES[code],
    status,
    detail,
    code,
    requestId: c.get("requestId"),
  };
  return c.body(JSON.stringify(problem), status, {
    ...headers,
    "Content-Type": PROBLEM_CONTENT_TYPE,
  });
}
