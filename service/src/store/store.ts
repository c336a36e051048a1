import type { Plan } from "@vics/shared";
import type { VehicleFacts } from "../domain/vehicle-facts.ts";
import type { DataInfo } from "./data-info.ts";
import type { ImportStore } from "./import-store.ts";
import type { FetchedFactStore } from "./fetched-facts.ts";

/** What an insurance check answers from: the vehicle and its policies, nothing else. */
export type InsuranceFacts = Pick<
  VehicleFacts,
  "registration" | "vehicle" | "firstRegistered" | "lastUpdated" | "policies"
>;

/** The insurance check's part of a vehicle's facts, as findInsurance answers it. */
export const insurancePart = (facts: InsuranceFacts): InsuranceFacts => ({
  registration: facts.registration,
  vehicle: facts.vehicle,
  firstRegistered: facts.firstRegistered,
  lastUpdated: facts.lastUpdated,
  policies: facts.policies,
});

export interface ApiKeyRecord {
  id: number;
  name: string;
  plan: Plan;
  createdAt: string;
  revokedAt: string | null;
}

export interface NewApiKey {
  name: string;
  plan: Plan;
  keyHash: string;
  createdAt: string;
}

/**
 * `knownAt` (an ISO instant): the vehicle as VICS knew it then, from the versions imports keep
 * (decision 041); absent, as it knows it now. A vehicle VICS did not hold then is not found.
 */
export interface VehicleStore {
  findVehicle(
    registration: string,
    knownAt?: string,
  ): Promise<VehicleFacts | undefined>;
  /**
   * findVehicle's answer for an insurance check (insurancePart of it), read without the MOT
   * tests, tax or fines: the single insurance check's one lookup.
   */
  findInsurance(
    registration: string,
    knownAt?: string,
  ): Promise<InsuranceFacts | undefined>;
  /** Keyed by registration; registrations that are not found are absent. */
  findVehicles(
    registrations: readonly string[],
    knownAt?: string,
  ): Promise<Map<string, VehicleFacts>>;
  /** findInsurance for many: findVehicles' answer without the MOT tests, tax or fines. */
  findInsurances(
    registrations: readonly string[],
    knownAt?: string,
  ): Promise<Map<string, InsuranceFacts>>;
}

export interface KeyStore {
  /** Rejects with DuplicateKeyNameError when the name is taken. */
  createKey(key: NewApiKey): Promise<ApiKeyRecord>;
  findKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined>;
  listKeys(): Promise<ApiKeyRecord[]>;
  /** Undefined when no key has that name; revoking twice keeps the first time. */
  revokeKey(name: string, revokedAt: string): Promise<ApiKeyRecord | undefined>;
}

/**
 * Every write this process makes goes through it (an import's apply, fetched facts), so that it
 * knows when its held dataInfo is stale (held-data-info.ts); its imports list for the data page.
 */
export interface Store
  extends VehicleStore, KeyStore, FetchedFactStore, ImportStore {
  /** True when the database holds the seeded synthetic fleet (sandbox default). */
  holdsSyntheticFleet(): Promise<boolean>;
  /** Since when it holds data, the earliest day covered, and each source's freshness. */
  dataInfo(): Promise<DataInfo>;
  /** Resolves when the database answers; for the readiness checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * What a seeding found and did: seeded the synthetic fleet; found it already there (seeding
 * twice is no error); or found vehicles of the database's own, which it never mixes with it.
 */
export type SeedOutcome = "seeded" | "already-seeded" | "own-vehicles";

export class DuplicateKeyNameError extends Error {
  constructor(name: string) {
    super(`A key named "${name}" already exists`);
    this.name = "DuplicateKeyNameError";
  }
}
