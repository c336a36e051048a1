import { z } from "zod";

export const VehicleSchema = z
  .object({
    make: z.string().min(1),
    model: z.string().min(1),
    year: z.number().int().min(1000).max(9999).describe("Year, four digits"),
    color: z.string().min(1).describe("Colour name"),
    firstRegistered: z.iso
      .date()
      .optional()
      .describe(
        "Extension: the date the vehicle was first registered. A vehicle registered in the last 14 days may not be on the insurance record yet (insurers have up to 14 days to put a policy on it).",
      ),
  })
  .meta({ id: "Vehicle" });

export type Vehicle = z.infer<typeof VehicleSchema>;
