/**
 * The team's saved fleets, in the proxy's store beside its users (not in the service, which
 * stays the v1 API any upstream could be). A fleet's vehicles are each held once, in the order
 * they were saved, with the user's own cells; `version` counts the changes to them, so that a
 * new list is applied only to the fleet its difference was shown for.
 */
import type { FleetVehicle } from "@vics/shared";

export interface StoredFleet {
  id: string;
  name: string;
  columns: string[];
  version: number;
  vehicleCount: number;
  /** ms since the epoch; the user's email at the time (null when there was no user). */
  createdAt: number;
  createdBy: string | null;
  updatedAt: number;
  updatedBy: string | null;
}

export interface StoredFleetVehicle extends FleetVehicle {
  /** When the vehicle joined the fleet (ms since the epoch); kept across updates. */
  addedAt: number;
}

export interface FleetActor {
  email: string | null;
  at: number;
}

export interface FleetContents {
  columns: string[];
  vehicles: readonly FleetVehicle[];
}

/**
 * The team's caps (MAX_FLEETS, MAX_WATCHED_VEHICLES in the proxy's environment): how many
 * fleets it keeps, and how many vehicles all of them hold together, a vehicle counted once
 * per fleet that holds it (so the cap bounds both the store and the re-checks).
 */
export interface FleetCaps {
  maxFleets: number;
  maxWatchedVehicles: number;
}

/** Unless MAX_FLEETS and MAX_WATCHED_VEHICLES say otherwise: two and a half largest fleets. */
export const DEFAULT_FLEET_CAPS: FleetCaps = {
  maxFleets: 100,
  maxWatchedVehicles: 250_000,
};

export interface FleetStore {
  /**
   * Rejects with DuplicateFleetNameError when a fleet has that name (any case), with
   * FleetCapError when the team would have more fleets or watched vehicles than `caps`.
   */
  createFleet(
    name: string,
    contents: FleetContents,
    actor: FleetActor,
    caps?: FleetCaps,
  ): Promise<StoredFleet>;
  /** By name. */
  listFleets(): Promise<StoredFleet[]>;
  findFleet(id: string): Promise<StoredFleet | undefined>;
  /** In the order they were saved; empty for an unknown fleet. */
  fleetVehicles(id: string): Promise<StoredFleetVehicle[]>;
  /**
   * The fleet becomes `contents`, in one transaction: kept vehicles keep their `addedAt`.
   * Rejects with FleetVersionError when the fleet is no longer at `version`, with
   * FleetCapError when the team would watch more vehicles than `caps`; undefined when there is
   * no such fleet.
   */
  replaceFleetVehicles(
    id: string,
    version: number,
    contents: FleetContents,
    actor: FleetActor,
    caps?: FleetCaps,
  ): Promise<StoredFleet | undefined>;
  /** Rejects with DuplicateFleetNameError; undefined when there is no such fleet. */
  renameFleet(
    id: string,
    name: string,
    actor: FleetActor,
  ): Promise<StoredFleet | undefined>;
  /** False when there was no such fleet. Its vehicles go with it. */
  deleteFleet(id: string): Promise<boolean>;
  /** Every vehicle of every fleet, each once: what the re-checks ask about. */
  watchedRegistrations(): Promise<string[]>;
}

export class DuplicateFleetNameError extends Error {
  constructor(name: string) {
    super(`A fleet named "${name}" already exists`);
    this.name = "DuplicateFleetNameError";
  }
}

export class FleetVersionError extends Error {
  readonly expected: number;
  readonly actual: number;
  constructor(expected: number, actual: number) {
    super(`The fleet changed (version ${actual}, not ${expected})`);
    this.name = "FleetVersionError";
    this.expected = expected;
    this.actual = actual;
  }
}

/** A save that would take the team past one of its caps: nothing of it is kept. */
export class FleetCapError extends Error {
  readonly kind: "fleets" | "watched-vehicles";
  readonly cap: number;
  constructor(kind: "fleets" | "watched-vehicles", cap: number) {
    super(
      kind === "fleets"
        ? `The team keeps at most ${cap} fleets`
        : `The team's fleets hold at most ${cap} vehicles together`,
    );
    this.name = "FleetCapError";
    this.kind = kind;
    this.cap = cap;
  }
}
