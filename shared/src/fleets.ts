import { z } from "zod";
import { isValidRegistration, normaliseRegistration } from "./registration.ts";

/**
 * The team's saved fleets (docs/api.md, "Saved fleets"): the proxy's own routes under
 * /api/fleets, for users with the `fleet` role. A fleet is a name, its vehicles (each once) and
 * the user's own columns (fleet number, driver, depot...), one cell per column per vehicle.
 */

export const FLEET_PATHS = {
  fleets: "/api/fleets",
  fleet: (id: string) => `/api/fleets/${encodeURIComponent(id)}`,
  /** POST a new list: what applying it would change, without changing anything. */
  difference: (id: string) =>
    `/api/fleets/${encodeURIComponent(id)}/difference`,
  /** PUT a new list, with the version its difference was shown for. */
  vehicles: (id: string) => `/api/fleets/${encodeURIComponent(id)}/vehicles`,
} as const;

/** As many vehicles as the fleet check takes in one list. */
export const FLEET_MAX_VEHICLES = 100_000;
export const FLEET_MAX_COLUMNS = 40;
export const FLEET_NAME_MAX = 80;
export const FLEET_CELL_MAX = 200;
/** A saved fleet's body: 100,000 vehicles with a few columns fit well inside it. */
export const FLEET_MAX_BODY_BYTES = 24 * 1024 * 1024;

export const FleetNameSchema = z
  .string({ error: "Give the fleet a name" })
  .trim()
  .min(1, { error: "Give the fleet a name" })
  .max(FLEET_NAME_MAX, {
    error: `A fleet's name has at most ${FLEET_NAME_MAX} characters`,
  });

const CellSchema = z.string().max(FLEET_CELL_MAX, {
  error: `A cell holds at most ${FLEET_CELL_MAX} characters`,
});

export const FleetVehicleSchema = z.object({
  /** Normalised (AB12CDE). */
  registration: z.string(),
  /** One per column of the fleet, in its order. */
  cells: z.array(CellSchema),
});
export type FleetVehicle = z.infer<typeof FleetVehicleSchema>;

export const FleetColumnsSchema = z.array(CellSchema).max(FLEET_MAX_COLUMNS, {
  error: `A fleet keeps at most ${FLEET_MAX_COLUMNS} columns of its own`,
});

export const FleetVehiclesSchema = z
  .array(FleetVehicleSchema)
  .min(1, { error: "A fleet needs at least one vehicle" })
  .max(FLEET_MAX_VEHICLES, {
    error: `A fleet holds at most ${FLEET_MAX_VEHICLES.toLocaleString("en-GB")} vehicles`,
  });

/** A problem of one vehicle of a list, named by its position. */
export interface FleetVehicleIssue {
  path: (string | number)[];
  message: string;
}

/**
 * The rules of a list's vehicles, one vehicle at a time in the list's order (so a server can
 * check a long list a slice at a time): the registration normalised and valid, each once, no
 * more cells than columns (fewer are padded). Returns the vehicle as kept, and its problem.
 */
export function fleetVehicleRules(columns: number) {
  const seen = new Map<string, number>();
  return (
    vehicle: FleetVehicle,
    index: number,
  ): { vehicle: FleetVehicle; issue?: FleetVehicleIssue } => {
    const registration = normaliseRegistration(vehicle.registration);
    const where = `Vehicle ${index + 1} ("${vehicle.registration}")`;
    let issue: FleetVehicleIssue | undefined;
    if (!isValidRegistration(registration)) {
      issue = {
        path: ["vehicles", index, "registration"],
        message: `${where} is not a valid registration`,
      };
    } else if (seen.has(registration)) {
      issue = {
        path: ["vehicles", index, "registration"],
        message: `${where} repeats vehicle ${seen.get(registration)}: a fleet holds each vehicle once`,
      };
    } else if (vehicle.cells.length > columns) {
      issue = {
        path: ["vehicles", index, "cells"],
        message: `${where} has ${vehicle.cells.length} cells for ${columns} columns`,
      };
    }
    seen.set(registration, seen.get(registration) ?? index + 1);
    const cells = [...vehicle.cells];
    while (cells.length < columns) cells.push("");
    return { vehicle: { registration, cells }, issue };
  };
}

/**
 * A list of vehicles as a user sends it: registrations as they typed them (normalised here),
 * each once, with as many cells as there are columns. A bad entry is named by its position.
 */
export const FleetListSchema = z
  .object({ columns: FleetColumnsSchema, vehicles: FleetVehiclesSchema })
  .transform((list, context) => {
    const rules = fleetVehicleRules(list.columns.length);
    const vehicles = list.vehicles.map((listed, index) => {
      const { vehicle, issue } = rules(listed, index);
      if (issue) context.addIssue({ code: "custom", ...issue });
      return vehicle;
    });
    return { columns: list.columns, vehicles };
  });
export type FleetList = z.output<typeof FleetListSchema>;

/** POST /api/fleets: its fields beside the list (a server may read the list apart). */
export const NewFleetFieldsSchema = z.object({ name: FleetNameSchema });
export const NewFleetSchema = NewFleetFieldsSchema.and(FleetListSchema);
export type NewFleet = z.output<typeof NewFleetSchema>;

/** PUT /api/fleets/:id/vehicles: applies only to the version the difference was shown for. */
export const FleetUpdateFieldsSchema = z.object({
  version: z.number().int().positive(),
});
export const FleetUpdateSchema = FleetUpdateFieldsSchema.and(FleetListSchema);

/** PATCH /api/fleets/:id */
export const FleetRenameSchema = z.object({ name: FleetNameSchema });

const ActorSchema = z.object({
  at: z.string(),
  /** The user's email at the time; null when the user is gone. */
  by: z.string().nullable(),
});

export const FleetSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  vehicleCount: z.number().int(),
  columns: z.array(z.string()),
  /** Goes up by one with every change of the vehicles or their cells. */
  version: z.number().int(),
  created: ActorSchema,
  updated: ActorSchema,
});
export type FleetSummary = z.infer<typeof FleetSummarySchema>;

/** GET /api/fleets */
export const FleetListPageSchema = z.object({
  fleets: z.array(FleetSummarySchema),
});

/** GET /api/fleets/:id: the vehicles in the order they were saved. */
export const SavedFleetSchema = FleetSummarySchema.extend({
  vehicles: z.array(
    FleetVehicleSchema.extend({
      /** When the vehicle joined the fleet (ISO time). */
      addedAt: z.string(),
    }),
  ),
});
export type SavedFleet = z.infer<typeof SavedFleetSchema>;

/** What a new list would change: POST .../difference, and the answer of the PUT. */
export const FleetDifferenceSchema = z.object({
  /** The fleet's version this difference is against. */
  version: z.number().int(),
  added: z.array(z.string()),
  removed: z.array(z.string()),
  /** Kept vehicles whose cells change (a new driver, another depot). */
  changed: z.array(z.string()),
  unchanged: z.number().int(),
  /** Whether the column names change. */
  columnsChanged: z.boolean(),
});
export type FleetDifference = z.infer<typeof FleetDifferenceSchema>;
