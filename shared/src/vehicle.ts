import { z } from "zod";

export const VehicleSchema = z
  .object({
    make: z.string().min(1),
    model: z.string().min(1),
    year: z.number().int().min(1000).max(9999).describe("Year, four digits"),
    color: z.string().min(1).describe("Colour name"),
  })
  .meta({ id: "Vehicle" });

export type Vehicle = z.infer<typeof VehicleSchema>;
