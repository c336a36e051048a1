import {
  ComplianceRecordSchema,
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

const {
  "400": invalid,
  "401": unauthorized,
  "404": notFound,
  "405": wrongMethod,
  "429": limited,
  "500": internal,
} = problemResponses;

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
      "/v1/vehicle/{registration}/insurance": {
        get: {
          operationId: "getInsurance",
          summary:
            "Whether a vehicle is insured today, with its policy and vehicle details",
          requestParams: { path: registrationPath },
          responses: {
            "200": jsonResponse(
              "The insurance record, insured or not",
              InsuranceRecordSchema,
            ),
            "400": invalid,
            "401": unauthorized,
            "404": notFound,
            "405": wrongMethod,
            "429": limited,
            "500": internal,
          },
        },
      },
      "/v1/compliance/{registration}": {
        get: {
          operationId: "getCompliance",
          summary:
            "Overall compliance verdict with insurance, MOT, road tax and fines checks",
          requestParams: { path: registrationPath },
          responses: {
            "200": jsonResponse(
              "The compliance record",
              ComplianceRecordSchema,
            ),
            "400": invalid,
            "401": unauthorized,
            "404": notFound,
            "405": wrongMethod,
            "429": limited,
            "500": internal,
          },
        },
      },
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
            "429": limited,
            "500": internal,
          },
        },
      },
      "/health": {
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
