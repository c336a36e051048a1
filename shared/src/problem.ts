import { z } from "zod";

export const PROBLEM_CODES = [
  "INVALID_REGISTRATION",
  "MALFORMED_REQUEST",
  "PAYLOAD_TOO_LARGE",
  "UNAUTHORIZED",
  "VEHICLE_NOT_FOUND",
  "RATE_LIMITED",
  "NOT_FOUND",
  "METHOD_NOT_ALLOWED",
  "INTERNAL",
  "BAD_GATEWAY",
  "GATEWAY_TIMEOUT",
  "FORBIDDEN",
  "MISDIRECTED_REQUEST",
  // The proxy's sign-in (docs/api.md, "Staff sign-in"): never sent by the v1 service.
  "SIGN_IN_REQUIRED",
  "ROLE_REQUIRED",
  "ACCOUNT_DISABLED",
  "LINK_NOT_USABLE",
  // The database or the rate limiter's Redis is not answering: retry after Retry-After.
  "SERVICE_UNAVAILABLE",
  // A point-in-time question outside the kept history, or in the future (decision 041).
  "DATE_OUT_OF_RANGE",
  // The proxy's saved fleets: a name already taken, or a fleet changed since it was read.
  "CONFLICT",
  // A live register (DVLA, DVSA) could not be asked about a vehicle VICS holds no record of
  // (decision 059): retry after Retry-After. Its own code, apart from SERVICE_UNAVAILABLE, so
  // the proxy passes on only this 503 (decision 017) and the web app shows its words.
  "SOURCE_UNAVAILABLE",
] as const;

export const ProblemCodeSchema = z.enum(PROBLEM_CODES);
export type ProblemCode = z.infer<typeof ProblemCodeSchema>;

export const PROBLEM_CONTENT_TYPE = "application/problem+json";
export const PROBLEM_TYPE_BASE = "https://vics.example/problems/";

/** RFC 9457 problem document, the body of every error response. */
export const ProblemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int().min(400).max(599),
    detail: z.string(),
    code: ProblemCodeSchema,
    requestId: z.string(),
    suggestions: z
      .array(z.string())
      .optional()
      .describe(
        "Extension on VEHICLE_NOT_FOUND: registrations we hold that differ only by O/0 or I/1",
      ),
    ownLimit: z
      .boolean()
      .optional()
      .describe(
        "Extension on the proxy's RATE_LIMITED: true when the person's own limit refused the request, not the API key's plan that the whole team shares",
      ),
  })
  .meta({ id: "Problem" });

export type Problem = z.infer<typeof ProblemSchema>;

/** The members a problem may carry beyond RFC 9457's and its code. */
export type ProblemExtensions = Pick<Problem, "suggestions" | "ownLimit">;

/** One title per code, in sentence case, for the service and the proxy alike. */
export const PROBLEM_TITLES: Record<ProblemCode, string> = {
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
  FORBIDDEN: "Forbidden",
  MISDIRECTED_REQUEST: "Misdirected request",
  SIGN_IN_REQUIRED: "Sign in required",
  ROLE_REQUIRED: "Not allowed for your role",
  ACCOUNT_DISABLED: "Account disabled",
  LINK_NOT_USABLE: "Link cannot be used",
  SERVICE_UNAVAILABLE: "Service unavailable",
  DATE_OUT_OF_RANGE: "Date out of range",
  CONFLICT: "Conflict",
  SOURCE_UNAVAILABLE: "Register unavailable",
};

export function problemType(code: ProblemCode): string {
  return PROBLEM_TYPE_BASE + code.toLowerCase().replaceAll("_", "-");
}

/** The one way to build a problem document: type and title follow from the code. */
export function problemDocument(
  problem: Pick<Problem, "code" | "status" | "detail" | "requestId"> &
    ProblemExtensions,
): Problem {
  return {
    ...problem,
    type: problemType(problem.code),
    title: PROBLEM_TITLES[problem.code],
  };
}
