import { z } from "zod";

export const PolicySchema = z
  .object({
    number: z.string().min(1).describe("Policy number"),
    insurer: z.string().min(1).describe("Insurer name"),
    validFrom: z.iso.date().describe("Start of cover (YYYY-MM-DD)"),
    validTo: z.iso.date().describe("End of cover (YYYY-MM-DD)"),
    type: z
      .string()
      .min(1)
      .describe(
        'Kind of cover, free text; reference data uses "Comprehensive", "Third Party, Fire and Theft" and "Third Party Only"',
      ),
  })
  .meta({ id: "Policy" });

export type Policy = z.infer<typeof PolicySchema>;
