// What a VES vehicle record is, after DVLA's OpenAPI document (version 1.1.0) field for field, and
// the facts VICS keeps from it. Dates are what the register sends, YYYY-MM-DD and months YYYY-MM,
// not the date-times of the document's examples: an answer with those is not read at all.
import { ukDate } from "@vics/shared";
import { z } from "zod";
import type { TaxRecord } from "../domain/compliance.ts";
import type { MotFact, SourceAnswer, VehicleDetails } from "./source.ts";

const date = z.iso.date();
const month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, "expected YYYY-MM");
const text = z.string().optional();
const count = z.int().optional();

/** The document's Vehicle schema, field for field; every field but the registration optional. */
export const VesVehicleSchema = z.object({
  registrationNumber: z.string().min(1),
  taxStatus: z
    .enum(["Not Taxed for on Road Use", "SORN", "Taxed", "Untaxed"])
    .optional(),
  taxDueDate: date.optional(),
  artEndDate: date.optional(),
  motStatus: z
    .enum([
      "No details held by DVLA",
      "No results returned",
      "Not valid",
      "Valid",
    ])
    .optional(),
  motExpiryDate: date.optional(),
  make: text,
  colour: text,
  yearOfManufacture: count,
  monthOfFirstRegistration: month.optional(),
  monthOfFirstDvlaRegistration: month.optional(),
  dateOfLastV5CIssued: date.optional(),
  markedForExport: z.boolean().optional(),
  co2Emissions: count,
  engineCapacity: count,
  revenueWeight: count,
  euroStatus: text,
  fuelType: text,
  realDrivingEmissions: text,
  typeApproval: text,
  wheelplan: text,
});
export type VesVehicle = z.infer<typeof VesVehicleSchema>;

/** The facts VICS keeps from a VES vehicle: tax, MOT expiry and the vehicle's details. */
export function factsOf(
  vehicle: VesVehicle,
  registration: string,
  answeredAt: Date,
): SourceAnswer {
  const tax = taxOf(vehicle, ukDate(answeredAt));
  const mot = motOf(vehicle);
  return {
    found: true,
    registration,
    answeredAt,
    vehicle: detailsOf(vehicle),
    ...(tax && { tax }),
    ...(mot && { mot }),
  };
}

function taxOf(
  { taxStatus, taxDueDate }: VesVehicle,
  today: string,
): TaxRecord | undefined {
  if (taxStatus === undefined) return undefined;
  if (taxStatus === "SORN") return { sorn: true, dueDate: taxDueDate ?? null };
  // Taxed without a due date says nothing VICS could check against a day: no tax fact.
  if (taxStatus === "Taxed")
    return taxDueDate ? { sorn: false, dueDate: taxDueDate } : undefined;
  // Untaxed, or not taxed for road use: the last due date if DVLA gives it and it is past. A
  // cancelled tax keeps its future due date, which the tax rule (taxed while the due date is
  // today or later) would read as taxed: such a date says nothing of a vehicle now untaxed.
  const past = taxDueDate !== undefined && taxDueDate < today;
  return { sorn: false, dueDate: past ? taxDueDate : null };
}

function motOf({ motStatus, motExpiryDate }: VesVehicle): MotFact | undefined {
  if (motStatus === undefined && motExpiryDate === undefined) return undefined;
  return { kind: "expiry", expiresOn: motExpiryDate ?? null };
}

function detailsOf(vehicle: VesVehicle): VehicleDetails {
  const details: VehicleDetails = {};
  if (vehicle.make !== undefined) details.make = vehicle.make;
  if (vehicle.colour !== undefined) details.color = vehicle.colour;
  if (vehicle.yearOfManufacture !== undefined)
    details.year = vehicle.yearOfManufacture;
  if (vehicle.monthOfFirstRegistration !== undefined)
    details.firstRegistered = `${vehicle.monthOfFirstRegistration}-01`;
  return details;
}
