// The MOT History API's answer for one vehicle, as DVSA documents it
// (documentation.history.mot.api.gov.uk, "MOT history API" specification), and what VICS keeps
// of it. Fields VICS does not use are checked only for their type, so a value DVSA adds to one of
// their lists (a new odometer unit, a new data source) does not make every such vehicle unreadable.
import { ukDate } from "@vics/shared";
import { z } from "zod";
import type { MotTest } from "../domain/compliance.ts";
import type { SourceAnswer, VehicleDetails } from "./source.ts";

const day = z.iso.date();
const optionalText = z.string().nullish();

const Defect = z.object({
  text: optionalText,
  type: optionalText,
  dangerous: z.boolean().nullish(),
});

const MotTestAnswer = z.object({
  /** Date-time the test was completed, e.g. 2023-09-21T09:03:37.000Z. */
  completedDate: z.iso.datetime({ offset: true }),
  /** Only passed and failed tests are given. */
  testResult: z.enum(["PASSED", "FAILED"]),
  expiryDate: day.nullish(),
  odometerValue: z.union([z.string(), z.number()]).nullish(),
  odometerUnit: optionalText,
  odometerResultType: optionalText,
  motTestNumber: z.union([z.string(), z.number()]).nullish(),
  dataSource: optionalText,
  location: optionalText,
  defects: z.array(Defect).nullish(),
});

/** A vehicle with tests (VehicleWithMotResponse) or a new one (NewRegVehicleResponse). */
export const MotHistoryVehicle = z
  .object({
    registration: optionalText,
    make: optionalText,
    model: optionalText,
    firstUsedDate: day.nullish(),
    registrationDate: day.nullish(),
    manufactureDate: day.nullish(),
    manufactureYear: z.number().int().nullish(),
    primaryColour: optionalText,
    fuelType: optionalText,
    engineSize: z.union([z.string(), z.number()]).nullish(),
    hasOutstandingRecall: optionalText,
    motTests: z.array(MotTestAnswer).optional(),
    /** A new vehicle's first MOT due date, where it has no tests yet. */
    motTestDueDate: day.nullish(),
  })
  .refine(
    (vehicle) =>
      vehicle.motTests !== undefined || vehicle.motTestDueDate != null,
    {
      message: "neither motTests nor motTestDueDate",
    },
  );

export type MotHistoryVehicle = z.input<typeof MotHistoryVehicle>;

/** DVSA's error body: `{ errorCode: "MOTH-NF-01", errorMessage, requestId }`. */
export const MotHistoryError = z.object({
  errorCode: z.string().optional(),
  errorMessage: z.string().optional(),
  requestId: z.string().optional(),
});

/** The parsed answer as the facts VICS keeps. */
export function toSourceAnswer(
  registration: string,
  vehicle: z.output<typeof MotHistoryVehicle>,
  answeredAt: Date,
): SourceAnswer {
  // A failed test issues no certificate; a pass without an expiry date gives nothing to check.
  const tests: MotTest[] = (vehicle.motTests ?? [])
    .flatMap((test) =>
      test.testResult === "PASSED" && test.expiryDate
        ? [
            {
              testedOn: ukDate(new Date(test.completedDate)),
              expiresOn: test.expiryDate,
            },
          ]
        : [],
    )
    .sort((a, b) => a.testedOn.localeCompare(b.testedOn));
  return {
    found: true,
    registration,
    answeredAt,
    vehicle: details(vehicle),
    mot: {
      kind: "history",
      tests,
      ...(vehicle.motTestDueDate ? { firstDue: vehicle.motTestDueDate } : {}),
    },
  };
}

function details(vehicle: z.output<typeof MotHistoryVehicle>): VehicleDetails {
  const dated = vehicle.manufactureDate ?? vehicle.registrationDate;
  const year = dated
    ? Number(dated.slice(0, 4))
    : (vehicle.manufactureYear ?? undefined);
  const firstRegistered = vehicle.registrationDate ?? vehicle.firstUsedDate;
  return {
    ...(vehicle.make ? { make: vehicle.make } : {}),
    ...(vehicle.model ? { model: vehicle.model } : {}),
    ...(vehicle.primaryColour ? { color: vehicle.primaryColour } : {}),
    ...(year !== undefined ? { year } : {}),
    ...(firstRegistered ? { firstRegistered } : {}),
  };
}
