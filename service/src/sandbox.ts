import {
  BULK_ERRORS,
  SANDBOX_REGISTRATIONS,
  addDays,
  type IsoDate,
} from "@vics/shared";
import type { VehicleFacts } from "./domain/vehicle-facts.ts";

export type SandboxOutcome =
  (typeof SANDBOX_REGISTRATIONS)[keyof typeof SANDBOX_REGISTRATIONS];

export const SANDBOX_DELAY_MS = 3000;

/**
 * ER19ERR's simulated failure. It takes the real 500 path, so clients meet a true 500, but it
 * is logged as the expected event it is, not as an incident with a stack trace.
 */
export class SandboxFailure extends Error {
  constructor(registration: string) {
    super(`Sandbox registration ${registration}: simulated failure`);
    this.name = "SandboxFailure";
  }
}

export function sandboxOutcome(
  registration: string,
): SandboxOutcome | undefined {
  return Object.hasOwn(SANDBOX_REGISTRATIONS, registration)
    ? SANDBOX_REGISTRATIONS[registration as keyof typeof SANDBOX_REGISTRATIONS]
    : undefined;
}

/**
 * The slow registration is not in the database (so it is a plain 404 with sandbox off);
 * in sandbox mode it answers, late, with this insured and compliant vehicle.
 */
export function slowSandboxVehicle(
  registration: string,
  today: IsoDate,
): VehicleFacts {
  return {
    registration,
    vehicle: { make: "Volkswagen", model: "Golf", year: 2019, color: "Grey" },
    firstRegistered: "2019-03-01",
    lastUpdated: `${addDays(today, -1)}T09:30:00.000Z`,
    policies: [
      {
        number: "SANDBOX-ER19SLO",
        insurer: "Acorn Mutual",
        validFrom: addDays(today, -100),
        validTo: addDays(today, 265),
        type: "Comprehensive",
      },
    ],
    motTests: [
      { testedOn: addDays(today, -165), expiresOn: addDays(today, 200) },
    ],
    tax: { sorn: false, dueDate: addDays(today, 150) },
    fines: [],
  };
}

/** What a sandbox registration does in a bulk list (docs/contract.md's "In a bulk list" column). */
export interface BulkSandboxEffect {
  /** ER19THR anywhere: the whole request is the 429 a real limit gives. */
  throttled: boolean;
  /** ER19SLO anywhere: the whole request waits the sandbox delay, once. */
  slow: boolean;
}

export function bulkSandboxEffect(
  registrations: readonly string[],
): BulkSandboxEffect {
  const outcomes = new Set(registrations.map(sandboxOutcome));
  return { throttled: outcomes.has("throttled"), slow: outcomes.has("slow") };
}

/** The failed item a sandbox registration gives in a bulk list; undefined when it is not one. */
export function sandboxBulkError(registration: string): string | undefined {
  const outcome = sandboxOutcome(registration);
  if (outcome === "not-found") return BULK_ERRORS.notFound;
  if (outcome === "error") return BULK_ERRORS.unavailable;
  return undefined;
}
