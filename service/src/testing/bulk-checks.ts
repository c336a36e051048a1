// The two bulk checks, for the tests that hold of both: the same body, limits, counting,
// sandbox and key handling, each answered with its own schema.
import { BulkComplianceResultSchema, BulkResultSchema } from "@vics/shared";

export const BULK_CHECKS = [
  {
    check: "bulk insurance",
    path: "/v1/vehicle/bulk-insurance",
    schema: BulkResultSchema,
  },
  {
    check: "bulk compliance",
    path: "/v1/vehicle/bulk-compliance",
    schema: BulkComplianceResultSchema,
  },
] as const;
