import {
  API_KEY_HEADER,
  BULK_MAX_BODY_BYTES,
  BULK_MAX_ITEM_LENGTH,
  BULK_MAX_REGISTRATIONS,
  PLAN_LIMITS,
  PROBLEM_CONTENT_TYPE,
  ProblemSchema,
  RATE_LIMIT_HEADERS,
  REQUEST_ID_HEADER,
  RETRY_AFTER_HEADER,
  UNAUTHENTICATED_LIMIT,
} from "@vics/shared";
import { z } from "zod";
import type {
  ZodOpenApiResponseObject,
  ZodOpenApiResponsesObject,
} from "zod-openapi";
import { WRONG_KEYS_PER_WINDOW } from "../http/wrong-key-budget.ts";

export const API_KEY_SCHEME = "ApiKey";

/** The document's tags: each operation has one (Spectral's operation-tags). */
export const TAGS = {
  checks: "Checks",
  data: "Data",
  document: "Document",
} as const;

export const apiKeySecurityScheme = {
  type: "apiKey",
  in: "header",
  name: API_KEY_HEADER,
  description: `Plans, in requests per 60-second window: ${Object.entries(
    PLAN_LIMITS,
  )
    .map(([plan, limit]) => `${plan} ${limit}`)
    .join(
      ", ",
    )}. Requests without a valid key: ${UNAUTHENTICATED_LIMIT} per client address (an IPv6 /64 counts as one), and wrong keys ${WRONG_KEYS_PER_WINDOW} from all addresses together.`,
} as const;

// `header.id` makes each a reusable component under components.headers.
const commonHeaders = {
  [REQUEST_ID_HEADER]: z.string().meta({
    description: "Identifies this request in the service's logs",
    header: { id: "RequestId" },
  }),
  [RATE_LIMIT_HEADERS.limit]: z
    .int()
    .min(0)
    .meta({
      description: "Requests allowed per 60-second window",
      header: { id: "RateLimitLimit" },
    }),
  [RATE_LIMIT_HEADERS.remaining]: z
    .int()
    .min(0)
    .meta({
      description: "Requests left in this window",
      header: { id: "RateLimitRemaining" },
    }),
  [RATE_LIMIT_HEADERS.reset]: z
    .int()
    .min(0)
    .max(60)
    .meta({
      description: "Whole seconds until the window resets",
      header: { id: "RateLimitReset" },
    }),
};

const headers = z.object(commonHeaders);
const rateLimitedHeaders = z.object({
  ...commonHeaders,
  [RETRY_AFTER_HEADER]: z
    .int()
    .min(1)
    .meta({ description: "Seconds to wait before retrying" }),
});

export function jsonResponse(
  description: string,
  schema: z.ZodType,
): ZodOpenApiResponseObject {
  return { description, headers, content: { "application/json": { schema } } };
}

export function problemResponse(
  description: string,
  extraHeaders = headers,
): ZodOpenApiResponseObject {
  return {
    description,
    headers: extraHeaders,
    content: { [PROBLEM_CONTENT_TYPE]: { schema: ProblemSchema } },
  };
}

/** A problem to retry after Retry-After: a 429, or a 503. */
export const retryableProblemResponse = (description: string) =>
  problemResponse(description, rateLimitedHeaders);

/** The statuses every operation with a key shares. */
const keyedProblemResponses = {
  "401": problemResponse(
    "UNAUTHORIZED: the API key is missing, unknown or revoked",
  ),
  "429": problemResponse(
    "RATE_LIMITED: the window's limit is reached; wait Retry-After seconds",
    rateLimitedHeaders,
  ),
  "500": problemResponse(
    "INTERNAL: an unexpected problem; the caller may retry later",
  ),
} satisfies ZodOpenApiResponsesObject;

const getOnly = problemResponse(
  "METHOD_NOT_ALLOWED: this path only answers GET; see the Allow header",
);

/** The problems of a GET about the data (docs/api.md, "The data behind the answers"). */
export const dataProblemResponses = {
  "401": keyedProblemResponses["401"],
  "405": getOnly,
  "429": keyedProblemResponses["429"],
  "500": keyedProblemResponses["500"],
} satisfies ZodOpenApiResponsesObject;

/** A single-vehicle check's problems: a GET's, and a registration's (integer keys: in order). */
export const problemResponses = {
  ...dataProblemResponses,
  "400": problemResponse(
    "INVALID_REGISTRATION: the registration is not in a UK format; MALFORMED_REQUEST: date or asKnownAt is not one",
  ),
  "404": problemResponse("VEHICLE_NOT_FOUND: no vehicle has this registration"),
} satisfies ZodOpenApiResponsesObject;

/** The imports hold the operator's files' names and refused rows: for the internal plan only. */
export const internalPlanProblemResponses = {
  ...dataProblemResponses,
  "403": problemResponse(
    "FORBIDDEN: the key is not on the internal plan (the proxy's is)",
  ),
} satisfies ZodOpenApiResponsesObject;

/** One import's refused rows: also a 404 for an import that does not exist. */
export const rejectsProblemResponses = {
  ...internalPlanProblemResponses,
  "404": problemResponse("NOT_FOUND: no import has this id"),
} satisfies ZodOpenApiResponsesObject;

/** The document's own problems: it needs no key, so a wrong one is not refused. */
export const documentProblemResponses = {
  "405": getOnly,
  "429": keyedProblemResponses["429"],
  "500": keyedProblemResponses["500"],
} satisfies ZodOpenApiResponsesObject;

/** A bulk check's problems: the body's; a registration that fails is an item, not a problem. */
export const bulkProblemResponses = {
  "400": problemResponse(
    `MALFORMED_REQUEST: the body is not JSON sent with Content-Type application/json, or not an object whose registrations is an array of 1 to ${BULK_MAX_REGISTRATIONS.toLocaleString("en-GB")} strings, none over ${BULK_MAX_ITEM_LENGTH} characters once trimmed; the detail names the problem`,
  ),
  "401": keyedProblemResponses["401"],
  "405": problemResponse(
    "METHOD_NOT_ALLOWED: this path only answers POST; see the Allow header",
  ),
  "413": problemResponse(
    `PAYLOAD_TOO_LARGE: the body is over ${BULK_MAX_BODY_BYTES / 1024} KiB`,
  ),
  "429": keyedProblemResponses["429"],
  "500": keyedProblemResponses["500"],
} satisfies ZodOpenApiResponsesObject;
