import {
  lookalikeRegistrations,
  parseRegistration,
  ukDate,
} from "@vics/shared";
import type { AppDeps } from "../app-deps.ts";
import type { IsoDate } from "../domain/dates.ts";
import { problems } from "../http/problems.ts";
import type { RateLimitDecision } from "@vics/shared/server/rate-limiter";
import {
  SandboxFailure,
  sandboxOutcome,
  slowSandboxVehicle,
} from "../sandbox.ts";
import type { VehicleFacts } from "../store/store.ts";

export interface VehicleLookup {
  facts: VehicleFacts;
  /** The check's instant, and its calendar day in the UK (docs/contract.md). */
  now: Date;
  today: IsoDate;
}

/** Validation, then the sandbox answers, then the store: shared by both single-vehicle checks. */
export async function lookUpVehicle(
  deps: Pick<AppDeps, "store" | "now" | "sandbox" | "sandboxDelayMs" | "sleep">,
  rawRegistration: string,
  rateLimit: RateLimitDecision,
): Promise<VehicleLookup> {
  const parsed = parseRegistration(rawRegistration);
  if (!parsed.ok) throw problems.invalidRegistration(parsed.message);
  const { registration } = parsed;
  const outcome = deps.sandbox ? sandboxOutcome(registration) : undefined;
  if (outcome === "not-found") throw problems.vehicleNotFound(registration);
  if (outcome === "error") throw new SandboxFailure(registration);
  if (outcome === "throttled") throw problems.rateLimited(rateLimit);
  if (outcome === "slow") await deps.sleep(deps.sandboxDelayMs);
  const now = deps.now();
  const today = ukDate(now);
  const facts =
    outcome === "slow"
      ? slowSandboxVehicle(registration, today)
      : await deps.store.findVehicle(registration);
  if (!facts)
    throw problems.vehicleNotFound(
      registration,
      await heldLookalikes(deps, registration),
    );
  return { facts, now, today };
}

/** Every valid O/0, I/1 variant of a 7-character plate: 2^7 - 1 at the most. */
const ALL_LOOKALIKES = 127;

/**
 * The O/0, I/1 misreadings of a registration that we do hold, nearest first, at most five:
 * one query over every candidate, so a held sixth-nearest one is not cut before the lookup.
 */
async function heldLookalikes(
  deps: Pick<AppDeps, "store">,
  registration: string,
): Promise<string[]> {
  const candidates = lookalikeRegistrations(registration, ALL_LOOKALIKES);
  if (candidates.length === 0) return [];
  const held = await deps.store.findVehicles(candidates);
  return candidates.filter((candidate) => held.has(candidate)).slice(0, 5);
}
