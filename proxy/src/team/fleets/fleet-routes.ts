// /api/fleets: the team's saved fleets, for users with the fleet role (docs/api.md, "Saved
// fleets"). Every change is in the audit log with who made it; a new list is applied only to
// the version of the fleet its difference was shown for.
import { iso } from "../http/iso-time.ts";
import {
  FLEET_MAX_BODY_BYTES,
  FLEET_PATHS,
  FleetRenameSchema,
  FleetUpdateFieldsSchema,
  NewFleetFieldsSchema,
  type FleetSummary,
  type SavedFleet,
} from "@vics/shared";
import { silentLogger, type Logger } from "@vics/server-kit/logger";
import { ProblemError } from "@vics/server-kit/problem-error";
import type { Context, Hono } from "hono";
import { requireRole } from "../auth/session-middleware.ts";
import type { AppContext, AppEnv } from "../http/app-env.ts";
import { okAudit } from "../audit/audit-log.ts";
import {
  formBody,
  limitBody,
  readJsonBody,
} from "../../gateway/http/json-body.ts";
import {
  DuplicateFleetNameError,
  FleetCapError,
  FleetVersionError,
  type FleetCaps,
  type StoredFleet,
} from "../store/fleet-store.ts";
import type { ProxyStore } from "../store/proxy-store.ts";
import type { WatchJobs } from "../watch/jobs/watch-jobs.ts";
import { fleetDifference } from "./fleet-difference.ts";
import { readFleetList } from "./read-fleet-list.ts";

export const fleetSummary = (fleet: StoredFleet): FleetSummary => ({
  id: fleet.id,
  name: fleet.name,
  vehicleCount: fleet.vehicleCount,
  columns: fleet.columns,
  version: fleet.version,
  created: { at: iso(fleet.createdAt), by: fleet.createdBy },
  updated: { at: iso(fleet.updatedAt), by: fleet.updatedBy },
});

const LIST = { maxBytes: FLEET_MAX_BODY_BYTES, what: "The list" };
/** A list of vehicles, counted as it streams in: up to FLEET_MAX_BODY_BYTES. */
const listBody = limitBody(LIST);

/** The fleet routes take a body: a new fleet, a list to compare or apply, a new name. */
export function fleetRoutesTakeBody(c: AppContext): boolean {
  const { method, path } = c.req;
  return (
    (method === "POST" || method === "PUT" || method === "PATCH") &&
    (path === FLEET_PATHS.fleets || path.startsWith(`${FLEET_PATHS.fleets}/`))
  );
}

const fleetNotFound = () =>
  new ProblemError(
    404,
    "NOT_FOUND",
    "There is no such fleet: it may have been deleted. The fleets page lists them all.",
  );

/** The fleet, or the 404 that says it is gone. */
export async function findFleet(
  store: ProxyStore,
  id: string,
): Promise<StoredFleet> {
  const fleet = await store.findFleet(id);
  if (!fleet) throw fleetNotFound();
  return fleet;
}

/** The words of a save refused by one of the team's caps (env.ts: MAX_FLEETS, MAX_WATCHED_VEHICLES). */
function capProblem(error: FleetCapError): ProblemError {
  const cap = error.cap.toLocaleString("en-GB");
  return new ProblemError(
    409,
    "CONFLICT",
    error.kind === "fleets"
      ? `The team already keeps ${cap} ${error.cap === 1 ? "fleet" : "fleets"}, the most it may (MAX_FLEETS). Delete a fleet it no longer needs, or ask an operator to raise the cap.`
      : `The team's fleets may hold ${cap} vehicles together (MAX_WATCHED_VEHICLES; a vehicle in two fleets counts twice), and this list would take them past it. Remove vehicles from this list or from another fleet, or ask an operator to raise the cap.`,
  );
}

export function registerFleetRoutes(
  app: Hono<AppEnv>,
  deps: {
    store: ProxyStore;
    now: () => number;
    caps?: FleetCaps;
    /** The re-checks, when on: a saved fleet's first check starts at once. */
    jobs?: WatchJobs;
    /** Says when a first check could not be queued. */
    logger?: Logger;
  },
): void {
  const { store, now, caps, jobs } = deps;
  const logger = deps.logger ?? silentLogger;
  /**
   * A first check of vehicles new to the fleet and never checked, started as they are saved
   * (decision 054; one another fleet watches has its facts already, and keeps them): the
   * proxy checks them itself rather than keep answers the browser sent, so they are "Checking
   * now", never blank. A failure to queue it leaves them to the daily sweep, and the save
   * stands; the log says which fleet (never which vehicles).
   */
  const checkFirst = async (fleetId: string, registrations: string[]) => {
    if (!jobs || registrations.length === 0) return;
    let unchecked = registrations;
    try {
      // A vehicle another fleet watches shows its facts at once (decision 054): only those
      // never checked are queued.
      unchecked = await store.unanswered(registrations);
      if (unchecked.length === 0) return;
      // Queued even behind a check of the fleet under way, which checks only its own vehicles.
      await jobs.checkNow({ fleetId, registrations: unchecked, added: true });
    } catch (error) {
      logger.warn(
        "could not queue the first check of a fleet's new vehicles: the daily sweep will check them",
        {
          fleetId,
          vehicles: unchecked.length,
          error: error instanceof Error ? error.message : String(error),
        },
      );
    }
  };
  const actor = (c: Context<AppEnv>) => ({
    email: c.get("user")?.email ?? null,
    at: now(),
  });
  const audit = okAudit(store, now);
  const found = (id: string) => findFleet(store, id);
  const nameTaken = (error: unknown): never => {
    if (error instanceof FleetCapError) throw capProblem(error);
    if (error instanceof DuplicateFleetNameError)
      throw new ProblemError(
        409,
        "CONFLICT",
        `${error.message}: choose another name.`,
      );
    throw error;
  };

  const fleetRole = requireRole("fleet");
  app.use(FLEET_PATHS.fleets, fleetRole);
  app.use(`${FLEET_PATHS.fleets}/*`, fleetRole);

  app.get(FLEET_PATHS.fleets, async (c) =>
    c.json({ fleets: (await store.listFleets()).map(fleetSummary) }),
  );

  app.post(FLEET_PATHS.fleets, listBody, async (c) => {
    const input = await readFleetList(c, LIST, NewFleetFieldsSchema);
    const fleet = await store
      .createFleet(input.name, input, actor(c), caps)
      .catch(nameTaken);
    await audit(c, "fleet.create", {
      fleet: fleet.name,
      vehicles: fleet.vehicleCount,
    });
    await checkFirst(
      fleet.id,
      input.vehicles.map((v) => v.registration),
    );
    return c.json(fleetSummary(fleet), 201);
  });

  app.get(`${FLEET_PATHS.fleets}/:id`, async (c) => {
    const fleet = await found(c.req.param("id"));
    const vehicles = await store.fleetVehicles(fleet.id);
    const answer: SavedFleet = {
      ...fleetSummary(fleet),
      vehicles: vehicles.map((v) => ({
        registration: v.registration,
        cells: v.cells,
        addedAt: iso(v.addedAt),
      })),
    };
    return c.json(answer);
  });

  app.post(`${FLEET_PATHS.fleets}/:id/difference`, listBody, async (c) => {
    const list = await readFleetList(c, LIST);
    const fleet = await found(c.req.param("id"));
    return c.json(
      fleetDifference(fleet, await store.fleetVehicles(fleet.id), list),
    );
  });

  app.put(`${FLEET_PATHS.fleets}/:id/vehicles`, listBody, async (c) => {
    const input = await readFleetList(c, LIST, FleetUpdateFieldsSchema);
    const fleet = await found(c.req.param("id"));
    const difference = fleetDifference(
      fleet,
      await store.fleetVehicles(fleet.id),
      input,
    );
    try {
      const updated = await store.replaceFleetVehicles(
        fleet.id,
        input.version,
        input,
        actor(c),
        caps,
      );
      if (!updated) throw fleetNotFound();
    } catch (error) {
      if (error instanceof FleetCapError) throw capProblem(error);
      if (error instanceof FleetVersionError)
        throw new ProblemError(
          409,
          "CONFLICT",
          "Someone changed this fleet after its difference was shown. Look at the difference again, then apply it.",
        );
      throw error;
    }
    await audit(
      c,
      "fleet.update",
      {
        fleet: fleet.name,
        added: difference.added.length,
        removed: difference.removed.length,
        changed: difference.changed.length,
      },
      [...difference.added, ...difference.removed],
    );
    // Only the vehicles new to the fleet are checked at once, as a new fleet's are: the rest
    // keep their answers, and are re-checked by the daily sweep.
    await checkFirst(fleet.id, difference.added);
    return c.json(difference);
  });

  app.patch(`${FLEET_PATHS.fleets}/:id`, formBody, async (c) => {
    const { name } = await readJsonBody(c, FleetRenameSchema);
    const fleet = await found(c.req.param("id"));
    const renamed = await store
      .renameFleet(fleet.id, name, actor(c))
      .catch(nameTaken);
    if (!renamed) throw fleetNotFound();
    await audit(c, "fleet.rename", { from: fleet.name, to: renamed.name });
    return c.json(fleetSummary(renamed));
  });

  app.delete(`${FLEET_PATHS.fleets}/:id`, async (c) => {
    const fleet = await found(c.req.param("id"));
    if (await store.deleteFleet(fleet.id))
      await audit(c, "fleet.delete", {
        fleet: fleet.name,
        vehicles: fleet.vehicleCount,
      });
    return c.body(null, 204);
  });
}
