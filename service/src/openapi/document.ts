import {
  AsKnownAtSchema,
  AsOfDateSchema,
  BulkRequestSchema,
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
import {
  RegisterRefreshQueuedSchema,
  RegistersSchema,
} from "@vics/shared/registers-admin";
import { z } from "zod";
import { createDocument, type ZodOpenApiResponsesObject } from "zod-openapi";
import {
  bulkComplianceOperation,
  bulkInsuranceOperation,
} from "./bulk-operations.ts";
import {
  API_KEY_SCHEME,
  apiKeySecurityScheme,
  bulkProblemResponses,
  dataProblemResponses,
  documentProblemResponses,
  internalPlanProblemResponses,
  jsonResponse,
  retryableProblemResponse,
  rejectsProblemResponses,
  problemResponses,
  TAGS,
} from "./responses.ts";

const tags = [
  {
    name: TAGS.checks,
    description:
      "Whether vehicles are insured and compliant: one at a time, or up to a list at once",
  },
  {
    name: TAGS.data,
    description:
      "Extensions for the operator's data page: what VICS holds and how fresh it is, and the operator's imports",
  },
  { name: TAGS.document, description: "This OpenAPI document" },
];

/** A single check's point in time (decision 041), each parameter described. */
const pointInTimeQuery = z.object({
  date: PointInTimeSchema.shape.date.meta({
    param: { description: AsOfDateSchema.description },
  }),
  asKnownAt: PointInTimeSchema.shape.asKnownAt.meta({
    param: { description: AsKnownAtSchema.description },
  }),
});

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
  description: string,
  answer: string,
  schema: z.ZodType,
  more: ZodOpenApiResponsesObject = {},
) {
  return {
    get: {
      operationId,
      summary,
      description: `${description} The registration is normalised first (case, spaces and hyphens ignored); one in no UK format is a 400, one VICS does not hold a 404. Counts as one request against the key's plan.`,
      tags: [TAGS.checks],
      // Extension (decision 041): optional; a client that sends neither sees no change.
      requestParams: { path: registrationPath, query: pointInTimeQuery },
      responses: {
        "200": jsonResponse(answer, schema),
        ...problemResponses,
        ...more,
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

const SERVICE_DESCRIPTION =
  "Every error is an RFC 9457 problem document (application/problem+json). Every response carries X-Request-Id and the X-RateLimit-* headers.";

/** Who answers for this server: whoever runs it (docs/operations.md), not a public address. */
const SERVICE_CONTACT = {
  name: "The team that runs this VICS server",
};

/**
 * Not offered under a licence (decision 058): OpenAPI 3.1 names a licence by an SPDX
 * identifier, and SPDX's LicenseRef- form is the one for a licence of one's own.
 */
const SERVICE_LICENSE = {
  name: "Proprietary: not offered under a licence",
  identifier: "LicenseRef-Proprietary",
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
      description: SERVICE_DESCRIPTION,
      contact: SERVICE_CONTACT,
      license: SERVICE_LICENSE,
    },
    tags,
    servers: [SERVICE_SERVER],
    security: [{ [API_KEY_SCHEME]: [] }],
    components: { securitySchemes: { [API_KEY_SCHEME]: apiKeySecurityScheme } },
    paths: {
      "/v1/vehicle/{registration}/insurance": vehicleCheck(
        "getInsurance",
        "Whether a vehicle is insured today, with its policy and vehicle details",
        "The vehicle's insurance today (or on `date`): insured or not, the policy that covers it, or the last one and when it lapsed, and the vehicle's make, model and colour.",
        "The insurance record, insured or not",
        InsuranceRecordSchema,
      ),
      "/v1/vehicle/bulk-insurance": { post: bulkInsuranceOperation },
      "/v1/vehicle/bulk-compliance": { post: bulkComplianceOperation },
      "/v1/compliance/{registration}": vehicleCheck(
        "getCompliance",
        "Overall compliance verdict with insurance, MOT, road tax and fines checks",
        "The vehicle's four checks (insurance, MOT, road tax, unpaid fines), each with its dates, and the verdict: compliant only when all four pass.",
        "The compliance record",
        ComplianceRecordSchema,
        {
          "503": retryableProblemResponse(
            "SOURCE_UNAVAILABLE: with a live register on (docs/sources.md), a vehicle VICS does not hold whose register could not be asked just now; the detail names the register and why; retry after Retry-After",
          ),
        },
      ),
      // Extensions for the operator's data page (docs/api.md, "The data behind the answers").
      "/v1/data/sources": {
        get: {
          operationId: "getDataSources",
          summary:
            "Extension: since when VICS holds data, the earliest day it covers, and how fresh each source is",
          description:
            "Extension, not in the interface document. For any key: when VICS first held data, the earliest day its history covers (the range `date` and `asKnownAt` accept), each source's freshness, and whether the data is the synthetic demo fleet.",
          tags: [TAGS.data],
          responses: {
            "200": jsonResponse(
              "The data's range and freshness",
              DataSourcesSchema,
            ),
            ...dataProblemResponses,
          },
        },
      },
      "/v1/data/imports": {
        get: {
          operationId: "listImports",
          summary: `Extension, for a key on the internal plan (403 otherwise): the last ${IMPORTS_LISTED} imports of the operator's files, newest first`,
          description:
            "Extension, not in the interface document. The operator's imports of data files: each file's name, digest and size, when it ran, its outcome and its counts. Only a key on the internal plan (the proxy's) may read them: any other key gets 403.",
          tags: [TAGS.data],
          responses: {
            "200": jsonResponse("The imports", ImportListSchema),
            ...internalPlanProblemResponses,
          },
        },
      },
      "/v1/data/imports/{id}/rejects": {
        get: {
          operationId: "getImportRejects",
          summary:
            "Extension, for a key on the internal plan (403 otherwise): the refused rows VICS keeps of one import (404 for an unknown import)",
          description:
            "Extension, not in the interface document. The rows of one import that VICS refused, with each one's line, column, value and reason, as many as it keeps (`truncated` says when there were more). Only a key on the internal plan may read them: any other key gets 403.",
          tags: [TAGS.data],
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
            ...rejectsProblemResponses,
          },
        },
      },
      "/v1/data/registers": {
        get: {
          operationId: "getRegisters",
          summary:
            "Extension, for a key on the internal plan (403 otherwise): the live registers, on or off, their last success and error, today's requests and stale facts",
          description:
            "Extension, not in the interface document. Each live register VICS can ask (DVLA's Vehicle Enquiry Service, DVSA's MOT History): whether the service's environment turns it on, the address it calls, its last success, its last error in words an operator can act on, the requests made today against its quota, how many held facts are stale, and its client secret's expiry where it has one.",
          tags: [TAGS.data],
          responses: {
            "200": jsonResponse("The live registers", RegistersSchema),
            ...internalPlanProblemResponses,
          },
        },
      },
      "/v1/data/registers/refresh": {
        post: {
          operationId: "refreshFromRegisters",
          summary:
            "Extension, for a key on the internal plan (403 otherwise): queue these vehicles' stale facts for a refresh from the live registers, without waiting",
          description:
            "Extension, not in the interface document. Takes a bulk check's body; each vehicle whose facts are older than its register's window (or will be by `until`) is queued behind every check, and the answer says at once how many requests were queued and how many vehicles were fresh already. The watched fleets' daily refresh ahead of their sweep uses it.",
          tags: [TAGS.data],
          requestParams: {
            query: z.object({
              until: z.iso.datetime({ offset: true }).optional().meta({
                description:
                  "Queue the facts that will be stale by this instant (the sweep's), at most a day from now; default now. 400 MALFORMED_REQUEST otherwise.",
                example: "2026-11-30T06:00:00Z",
              }),
            }),
          },
          requestBody: {
            required: true,
            content: { "application/json": { schema: BulkRequestSchema } },
          },
          responses: {
            "202": jsonResponse("What was queued", RegisterRefreshQueuedSchema),
            ...bulkProblemResponses,
            "403": internalPlanProblemResponses["403"],
          },
        },
      },
      "/v1/openapi.json": {
        get: {
          operationId: "getOpenApiDocument",
          summary:
            "This document. No key needed; a valid key is counted against its plan",
          description:
            "This OpenAPI 3.1 document, generated from the same schemas the service answers with. No key is needed: a valid key is counted against its plan, and a request without one against its address's allowance.",
          tags: [TAGS.document],
          security: [{}, { [API_KEY_SCHEME]: [] }],
          responses: {
            "200": jsonResponse(
              "The OpenAPI 3.1 document",
              z.object({}).loose(),
            ),
            ...documentProblemResponses,
          },
        },
      },
    },
  });
}
