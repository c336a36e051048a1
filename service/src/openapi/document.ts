import {
  ComplianceRecordSchema,
  InsuranceRecordSchema,
  PointInTimeSchema,
  REGISTRATION_MAX_LENGTH,
} from "@vics/shared";
import {
  DataSourcesSchema,
  ImportListSchema,
  IMPORTS_LISTED,
  ImportRejectsSchema,
} from "@vics/shared/data-admin";
import { z } from "zod";
import { createDocument } from "zod-openapi";
import {
  bulkComplianceOperation,
  bulkInsuranceOperation,
} from "./bulk-operations.ts";
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
      // Extension (decision 041): optional; a client that sends neither sees no change.
      requestParams: { path: registrationPath, query: PointInTimeSchema },
      responses: {
        "200": jsonResponse(answer, schema),
        ...problemResponses,
      },
    },
  };
}

/**
 * The paths already start with /v1, so the server is the service's own origin root: a
 * relative "/" that works on whatever host serves the document. The proxy's copy says
 * "/api" instead (docs/decisions/009-openapi-servers.md).
 */
export const SERVICE_SERVER = {
  url: "/",
  description: "This service, on the origin that serves this document",
};

/**
 * Generated from the shared zod schemas, never written by hand. Only the v1 API: the
 * liveness path for supervisors (/health) is not part of it (docs/operations.md).
 */
export function createOpenApiDocument() {
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "VICS: Vehicle Insurance and Compliance Verification Service",
      version: "1.0.0",
      description:
        "Every error is an RFC 9457 problem document (application/problem+json). Every response carries X-Request-Id and the X-RateLimit-* headers.",
    },
    servers: [SERVICE_SERVER],
    security: [{ [API_KEY_SCHEME]: [] }],
    components: { securitySchemes: { [API_KEY_SCHEME]: apiKeySecurityScheme } },
    paths: {
      "/v1/vehicle/{registration}/insurance": vehicleCheck(
        "getInsurance",
        "Whether a vehicle is insured today, with its policy and vehicle details",
        "The insurance record, insured or not",
        InsuranceRecordSchema,
      ),
      "/v1/vehicle/bulk-insurance": { post: bulkInsuranceOperation },
      "/v1/vehicle/bulk-compliance": { post: bulkComplianceOperation },
      "/v1/compliance/{registration}": vehicleCheck(
        "getCompliance",
        "Overall compliance verdict with insurance, MOT, road tax and fines checks",
        "The compliance record",
        ComplianceRecordSchema,
      ),
      // Extensions for the operator's data page (docs/api.md, "The data behind the answers").
      "/v1/data/sources": {
        get: {
          operationId: "getDataSources",
          summary:
            "Extension: since when VICS holds data, the earliest day it covers, and how fresh each source is",
          responses: {
            "200": jsonResponse(
              "The data's range and freshness",
              DataSourcesSchema,
            ),
            ...problemResponses,
          },
        },
      },
      "/v1/data/imports": {
        get: {
          operationId: "listImports",
          summary: `Extension, for a key on the internal plan (403 otherwise): the last ${IMPORTS_LISTED} imports of the operator's files, newest first`,
          responses: {
            "200": jsonResponse("The imports", ImportListSchema),
            ...problemResponses,
          },
        },
      },
      "/v1/data/imports/{id}/rejects": {
        get: {
          operationId: "getImportRejects",
          summary:
            "Extension, for a key on the internal plan (403 otherwise): the refused rows VICS keeps of one import (404 for an unknown import)",
          requestParams: {
            path: z.object({
              id: z.string().meta({ description: "The import's id" }),
            }),
          },
          responses: {
            "200": jsonResponse(
              "The import's refused rows",
              ImportRejectsSchema,
            ),
            ...problemResponses,
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
            "429": problemResponses["429"],
            "500": problemResponses["500"],
          },
        },
      },
    },
  });
}
