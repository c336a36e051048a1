// What the re-checks found, for the fleet pages: each vehicle of a fleet with its latest facts,
// "unknown since" and open alerts (and, asked for, what moved since a UK date); a vehicle's
// timeline; "Check this fleet now", once at a time per fleet. And the admin's daily time, with
// the latest sweeps.
import {
  DailyTimeSchema,
  FLEET_PATHS,
  FleetStatusQuerySchema,
  WATCH_PATHS,
  normaliseRegistration,
  type WatchedVehicle,
} from "@vics/shared";
import { malformedRequest, ProblemError } from "@vics/server-kit/problem-error";
import type { Hono } from "hono";
import { requireRole } from "../auth/session-middleware.ts";
import type { AppEnv } from "../http/app-env.ts";
import { okAudit } from "../audit/audit-log.ts";
import { iso, isoOrNull } from "../http/iso-time.ts";
import { findFleet } from "../fleets/fleet-routes.ts";
import { formBody, readJsonBody } from "../../gateway/http/json-body.ts";
import type { ProxyStore } from "../store/proxy-store.ts";
import {
  DAILY_TIME_SETTING,
  DEFAULT_DAILY_TIME,
} from "../schedule/daily-time.ts";
import type { WatchJobs } from "./jobs/watch-jobs.ts";
import { alertAnswer } from "./notification-routes.ts";

const DAY_MS = 86_400_000;

/** `?changedSince=YYYY-MM-DD`: the instant that UK day began; undefined when not asked. */
function changedSince(query: Record<string, string>): number | undefined {
  const parsed = FleetStatusQuerySchema.safeParse(query);
  if (!parsed.success)
    throw malformedRequest(`changedSince: ${parsed.error.issues[0]!.message}`);
  return parsed.data.changedSince;
}

const RECHECKS_OFF =
  "Re-checks are off: the proxy has no key of their own. An operator sets WATCH_API_KEY_FILE (docs/watching.md).";

export function registerWatchRoutes(
  app: Hono<AppEnv>,
  deps: { store: ProxyStore; now: () => number; jobs?: WatchJobs },
): void {
  const { store, now, jobs } = deps;
  const fleetOf = (id: string) => findFleet(store, id);

  // Under /api/fleets, which needs the fleet role (fleet-routes.ts).
  app.get(`${FLEET_PATHS.fleets}/:id/status`, async (c) => {
    const since = changedSince(c.req.query());
    const fleet = await fleetOf(c.req.param("id"));
    const vehicles = await store.fleetVehicles(fleet.id);
    const states = await store.watchStates(vehicles.map((v) => v.registration));
    const changes =
      since === undefined
        ? undefined
        : Map.groupBy(
            await store.fleetChangesSince(fleet.id, since),
            (change) => change.registration,
          );
    const answer: WatchedVehicle[] = vehicles.map((vehicle, index) => {
      const state = states[index]!;
      return {
        registration: vehicle.registration,
        cells: vehicle.cells,
        addedAt: iso(vehicle.addedAt),
        checkedAt: isoOrNull(state.checkedAt),
        unknownSince: isoOrNull(state.unknownSince),
        facts: state.facts ?? null,
        alerts: state.openAlerts.map(alertAnswer),
        ...(changes && {
          changes: (changes.get(vehicle.registration) ?? []).map((change) => ({
            at: iso(change.at),
            area: change.area,
            before: change.before,
            after: change.after,
          })),
        }),
      };
    });
    const checking = jobs
      ? await jobs.checking(fleet.id).catch(() => false)
      : false;
    return c.json({ vehicles: answer, checking });
  });

  app.post(`${FLEET_PATHS.fleets}/:id/check-now`, formBody, async (c) => {
    const fleet = await fleetOf(c.req.param("id"));
    if (!jobs) throw new ProblemError(503, "SERVICE_UNAVAILABLE", RECHECKS_OFF);
    const vehicles = await store.fleetVehicles(fleet.id);
    const { alreadyRunning } = await jobs.checkNow({
      fleetId: fleet.id,
      registrations: vehicles.map((v) => v.registration),
    });
    // Audited when a check starts; asking again while it runs starts nothing.
    if (!alreadyRunning)
      await audit(c, "fleet.check-now", {
        fleet: fleet.name,
        vehicles: vehicles.length,
      });
    return c.json({ queued: vehicles.length, alreadyRunning }, 202);
  });

  app.get(WATCH_PATHS.vehicleRoute, requireRole("fleet"), async (c) => {
    const registration = normaliseRegistration(c.req.param("registration"));
    const [timeline, alerts] = await Promise.all([
      store.vehicleTimeline(registration),
      store.vehicleAlerts(registration),
    ]);
    return c.json({
      registration,
      timeline: timeline.map((entry) => ({ ...entry, at: iso(entry.at) })),
      alerts: alerts.map(alertAnswer),
    });
  });

  const audit = okAudit(store, now);

  const admin = requireRole("admin");
  app.get(WATCH_PATHS.admin, admin, async (c) =>
    c.json({
      dailyTime:
        (await store.watchSetting(DAILY_TIME_SETTING)) ?? DEFAULT_DAILY_TIME,
      ...reChecks(jobs),
      unknownForADay: await store.unknownBefore(now() - DAY_MS),
      runs: (await store.watchRuns(20)).map((run) => ({
        kind: run.kind,
        startedAt: iso(run.startedAt),
        finishedAt: isoOrNull(run.finishedAt),
        outcome: run.outcome,
        vehicles: run.vehicles,
        unknown: run.unknown,
        alerts: run.alerts,
      })),
    }),
  );

  app.patch(WATCH_PATHS.admin, admin, formBody, async (c) => {
    const { dailyTime } = await readJsonBody(c, DailyTimeSchema);
    const before =
      (await store.watchSetting(DAILY_TIME_SETTING)) ?? DEFAULT_DAILY_TIME;
    await store.setWatchSetting(DAILY_TIME_SETTING, dailyTime);
    // Recorded once saved, whether or not the job engine takes the new time at once.
    await audit(c, "watch.schedule", { from: before, to: dailyTime });
    await jobs?.reschedule(dailyTime);
    return c.json({ dailyTime });
  });
}

/** Whether the re-checks run, as the admin page says it: on only once their jobs started. */
function reChecks(jobs: WatchJobs | undefined) {
  const state = jobs?.state() ?? { running: false, reason: RECHECKS_OFF };
  return state.running
    ? { reChecksOn: true }
    : { reChecksOn: false, reChecksOff: state.reason };
}
