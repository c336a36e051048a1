import { z } from "zod";
import { bulkCounts, LastPolicySchema } from "./bulk.ts";
import {
  ComplianceChecksSchema,
  ComplianceDetailsSchema,
} from "./compliance-record.ts";
import { FactSourcesSchema } from "./fact-sources.ts";
import { PolicySchema } from "./policy.ts";
import { VehicleSchema } from "./vehicle.ts";

const EXTENSION =
  "Extension, not in the interface document: clients must not depend on it, and fall back to one compliance check per vehicle where an upstream answers it with 404 or 405.";

export const BulkComplianceItemSchema = z
  .object({
    registration: z
      .string()
      .describe("Normalised; as submitted when it is invalid"),
    compliant: z
      .boolean()
      .describe(
        "True exactly when all four checks are true; false for a failed item",
      ),
    checks: ComplianceChecksSchema.describe("All four false on a failed item"),
    details: ComplianceDetailsSchema.optional(),
    policy: PolicySchema.optional().describe(
      "Extension (decision 021): the policy behind insuranceValid, only on an item whose insuranceValid is true; a client can then show the insurer and the end of cover without a bulk insurance request",
    ),
    lastPolicy: LastPolicySchema.optional(),
    vehicle: VehicleSchema.optional(),
    factSources: FactSourcesSchema.optional(),
    error: z.string().optional().describe("Only on a failed item"),
  })
  .meta({ id: "BulkComplianceItem" });

export type BulkComplianceItem = z.infer<typeof BulkComplianceItemSchema>;

export const BulkComplianceResultSchema = bulkCounts(
  BulkComplianceItemSchema,
).meta({ id: "BulkComplianceResult", description: EXTENSION });

export type BulkComplianceResult = z.infer<typeof BulkComplianceResultSchema>;
