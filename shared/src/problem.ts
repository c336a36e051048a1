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
  })
  .meta({ id: "Problem" });

export type Problem = z.infer<typeof ProblemSchema>;

export function problemType(code: ProblemCode): string {
  return PROBLEM_TYPE_BASE + code.toLowerCase().replaceAll("_", "-");
}
