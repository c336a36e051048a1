import { z } from "zod";
import { PolicySchema } from "./policy.ts";
import { VehicleSchema } from "./vehicle.ts";
import { AsOfSchema, DataAsOfSchema } from "./point-in-time.ts";

export const InsuranceRecordSchema = z
  .object({
    registration: z.string().describe("The normalised registration queried"),
    insured: z
      .boolean()
      .describe(
        "True when a policy covers today (validFrom <= today <= validTo), where today is the calendar date in the UK (Europe/London), or the date asked",
      ),
    policy: PolicySchema.nullable().describe(
      "The current policy when insured; otherwise the most recent lapsed policy, or null if there never was one",
    ),
    vehicle: VehicleSchema,
    lastUpdated: z.iso
      .datetime()
      .describe("When the vehicle's record last changed (UTC)"),
    dataAsOf: DataAsOfSchema.optional(),
    asOf: AsOfSchema.optional(),
  })
  .meta({ id: "InsuranceRecord" });

export type InsuranceRecord = z.infer<typeof InsuranceRecordSchema>;
