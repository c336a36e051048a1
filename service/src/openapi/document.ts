import {
  ComplianceRecordSchema,
  HEALTH_PATH,
  InsuranceRecordSchema,
  REGISTRATION_MAX_LENGTH,
} from "@vics/shared";
import { z } from "zod";
import { createDocument } from "zod-openapi";
import {
  API_KEY_SCHEME,
  apiKeySecurityScheme,
  jsonResponse,
  problemResponses,
} from "./responses.ts";

const registrationPath = z.object({
  registration: z
    .string()
    .max(64)
    .meta({
      description: `UK registration; spaces, hyphens and case are ignored (normalised to at most ${REGISTRATION_MAX_LENGTH} characters A-Z 0-9)`,
      example: "AB12 CDE",
    }),
});

/** A single-vehicle check: GET by registration, with every status the contract gives it. */
function vehicleCheck(
  operationId: string,
  summary: string,
  answer: string,
  schema: z.ZodType,
) {
  return {
    get: {
      operationId,
      summary,
      requestParams: { path: registrationPath },
      responses: {
        "200": jsonResponse(answer, schema),
        ...problemResponses,
      },
    },
  };
}

/** Generated from the shared zod schemas, never written by hand. */
export function createOpenApiDocument() {
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "VICS: Vehicle Insurance and Compliance Verification Service",
      version: "1.0.0",
      description:
        "Every error is an RFC 9457 problem document (application/problem+json). Every response carries X-Request-Id and the X-RateLimit-* headers.",
    },
    security: [{ [API_KEY_SCHEME]: [] }],
    components: { securitySchemes: { [API_KEY_SCHEME]: apiKeySecurityScheme } },
    paths: {
      "/v1/vehicle/{registration}/insurance": vehicleCheck(
        "getInsurance",
        "Whether a vehicle is insured today, with its policy and vehicle details",
        "The insurance record, insured or not",
        InsuranceRecordSchema,
      ),
      "/v1/compliance/{registration}": vehicleCheck(
        "getCompliance",
        "Overall compliance verdict with insurance, MOT, road tax and fines checks",
        "The compliance record",
        ComplianceRecordSchema,
      ),
      "/v1/openapi.json": {
        get: {
          operationId: "getOpenApiDocument",
          summary:
            "This document. No key needed; a valid key is counted against its plan",
          security: [{}, { [API_KEY_SCHEME]: [] }],
          responses: {
            "200": jsonResponse(
              "The OpenAPI 3.1 document",
              z.object({}).loose(),
            ),
            "429": problemResponses["429"],
            "500": problemResponses["500"],
          },
        },
      },
      [HEALTH_PATH]: {
        get: {
          operationId: "getHealth",
          summary: "Liveness for orchestration: no key, not rate limited",
          security: [],
          responses: {
            "200": {
              description: "The service is up",
              content: {
                "application/json": {
                  schema: z.object({ status: z.literal("ok") }),
                },
              },
            },
          },
        },
      },
    },
  });
}
