import {
  BULK_MAX_BODY_BYTES,
  BULK_MAX_REGISTRATIONS,
  BulkComplianceResultSchema,
  BulkRequestSchema,
  BulkResultSchema,
} from "@vics/shared";
import type { z } from "zod";
import type { ZodOpenApiOperationObject } from "zod-openapi";
import { bulkProblemResponses, jsonResponse, TAGS } from "./responses.ts";

const LIMITS = `Up to ${BULK_MAX_REGISTRATIONS.toLocaleString("en-GB")} registrations and ${BULK_MAX_BODY_BYTES / 1024} KiB per request, which counts as one request against the rate limit. One result per submitted registration, in the submitted order, duplicates kept; a registration that is invalid or not found is a failed item, not a failed request.`;

function bulkCheck(
  operationId: string,
  summary: string,
  description: string,
  answer: string,
  schema: z.ZodType,
): ZodOpenApiOperationObject {
  return {
    operationId,
    summary,
    description: `${description} ${LIMITS}`,
    tags: [TAGS.checks],
    requestBody: {
      required: true,
      content: { "application/json": { schema: BulkRequestSchema } },
    },
    responses: {
      "200": jsonResponse(answer, schema),
      ...bulkProblemResponses,
    },
  };
}

export const bulkInsuranceOperation = bulkCheck(
  "checkBulkInsurance",
  "Whether each vehicle in a list is insured today, with the counts",
  "The bulk check of the interface document.",
  "One item per submitted registration, and the counts (200 however many items failed)",
  BulkResultSchema,
);

/** Not in the interface document (docs/decisions/013-bulk-compliance-extension.md). */
export const bulkComplianceOperation = {
  ...bulkCheck(
    "checkBulkCompliance",
    "Extension: the compliance verdict of each vehicle in a list, with the counts",
    "Extension, not in the interface document: clients must not depend on it, and fall back to one compliance check per vehicle where a server answers it with 404 or 405. A failed item has compliant false, all four checks false and error.",
    "One compliance item per submitted registration, and the counts (200 however many items failed)",
    BulkComplianceResultSchema,
  ),
  "x-vics-extension": true,
} satisfies ZodOpenApiOperationObject;
