import { z } from "zod";
import { VehicleSchema } from "./vehicle.ts";
import { AsOfSchema, DataAsOfSchema } from "./point-in-time.ts";
import { FactSourcesSchema } from "./fact-sources.ts";

export const MotStatusSchema = z.enum(["valid", "expired", "exempt", "none"]);
export const TaxStatusSchema = z.enum(["taxed", "untaxed", "sorn"]);

export const InsuranceStatusSchema = z.enum(["insured", "lapsed", "none"]);

export const ComplianceDetailsSchema = z
  .object({
    insurance: z
      .object({
        status: InsuranceStatusSchema,
        validTo: z.iso.date().nullable(),
      })
      .optional()
      .describe(
        "The policy behind insuranceValid: insured until validTo, lapsed on validTo, or none on record",
      ),
    mot: z.object({ status: MotStatusSchema, expiry: z.iso.date().nullable() }),
    tax: z.object({
      status: TaxStatusSchema,
      dueDate: z.iso.date().nullable(),
    }),
    fines: z.object({
      count: z.number().int().min(0),
      totalPence: z.number().int().min(0),
    }),
  })
  .meta({
    id: "ComplianceDetails",
    description:
      "Optional extension: why each check passed or failed. Clients must work without it.",
  });

export const ComplianceChecksSchema = z
  .object({
    insuranceValid: z.boolean(),
    motValid: z.boolean(),
    roadTaxPaid: z.boolean(),
    noOutstandingFines: z.boolean(),
  })
  .meta({ id: "ComplianceChecks" });

export const ComplianceRecordSchema = z
  .object({
    registration: z.string(),
    compliant: z
      .boolean()
      .describe("True exactly when all four checks are true"),
    checks: ComplianceChecksSchema,
    lastChecked: z.iso.datetime().describe("When the check was made (UTC)"),
    details: ComplianceDetailsSchema.optional(),
    vehicle: VehicleSchema.optional().describe(
      "Extension: the vehicle checked, so a client can show it without a second request. Clients must not depend on it.",
    ),
    dataAsOf: DataAsOfSchema.optional(),
    factSources: FactSourcesSchema.optional(),
    asOf: AsOfSchema.optional(),
  })
  .meta({ id: "ComplianceRecord" });

export type InsuranceStatus = z.infer<typeof InsuranceStatusSchema>;
export type MotStatus = z.infer<typeof MotStatusSchema>;
export type TaxStatus = z.infer<typeof TaxStatusSchema>;
export type ComplianceDetails = z.infer<typeof ComplianceDetailsSchema>;
export type ComplianceChecks = z.infer<typeof ComplianceChecksSchema>;
export type ComplianceRecord = z.infer<typeof ComplianceRecordSchema>;
