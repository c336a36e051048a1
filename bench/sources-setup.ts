// What the live-register figures (sources.ts) run on: the service's real SQLite store on a file,
// seeded with a synthetic fleet; the VES stand-in over real HTTP, knowing those vehicles; a
// service app with DVLA VES on (paced by the real pacer, refreshed by the real refresher) beside
// the same app with no register on, both on the one store.
import { join } from "node:path";
import { ukDate } from "@vics/shared";
import { silentLogger } from "@vics/server-kit/logger";
import { memoryLimitStore } from "@vics/server-kit/memory-rate-limiter";
import { fleetRegistrations } from "../scripts/load/fleet-sample.ts";
import { createApp } from "../service/src/app.ts";
import { issueApiKey } from "../service/src/keys/api-key.ts";
import { DEFAULT_FLEET_SEED } from "../service/src/seed/fleet.ts";
import {
  factsOf,
  type VesVehicle,
} from "../service/src/sources/dvla-ves-vehicle.ts";
import { openSources } from "../service/src/sources/open-sources.ts";
import type { PaceSettings } from "../service/src/sources/source-settings.ts";
import type { Refresher } from "../service/src/sources/refresher.ts";
import {
  startVesStandIn,
  type VesStandIn,
} from "../service/src/testing/sources/ves-stand-in.ts";
import type { SourceAnswer } from "../service/src/sources/source.ts";
import { openSqliteStore } from "../service/src/store/sqlite/sqlite-store.ts";
import type { Store } from "../service/src/store/store.ts";
import { testAppDeps } from "../service/src/testing/index.ts";
import { SOURCE_DEFAULTS } from "../service/src/sources/source-settings.ts";

export const HOUR = 3_600_000;

// The service's defaults (an environment that sets none), so the bench runs at what an operator gets.
const { waitMs: WAIT_MS, bulkWaitMs: BULK_WAIT_MS } = SOURCE_DEFAULTS;
/** The register's window: a fact younger than this is used as it is. */
const FRESH_FOR_MS = SOURCE_DEFAULTS.freshHours * HOUR;

export type App = { fetch(request: Request): Response | Promise<Response> };

/** What DVLA says of every bench vehicle: taxed, MOT valid. */
export function vesVehicle(registration: string): VesVehicle {
  return {
    registrationNumber: registration,
    taxStatus: "Taxed",
    taxDueDate: "2027-06-01",
    motStatus: "Valid",
    motExpiryDate: "2027-05-14",
    make: "FORD",
    colour: "BLUE",
    yearOfManufacture: 2020,
    monthOfFirstRegistration: "2020-03",
  };
}

/** The fleet in a store file of `dir`, and `count` of its registrations in random order. */
export function seededStore(
  dir: string,
  count: number,
): { store: Store; registrations: string[] } {
  const store = openSqliteStore({
    path: join(dir, "vics.sqlite"),
    seed: {
      fleetSize: count,
      seed: DEFAULT_FLEET_SEED,
      today: ukDate(new Date()),
    },
  });
  return { store, registrations: fleetRegistrations(dir, count) };
}

/** Stores what the stand-in would answer for these vehicles, as fetched at `at`. */
export async function recordFetchedAt(
  store: Store,
  registrations: readonly string[],
  at: Date,
): Promise<void> {
  for (let start = 0; start < registrations.length; start += 1000)
    await store.recordFetched(
      registrations.slice(start, start + 1000).map((registration) => ({
        source: "dvla-ves" as const,
        fetchedAt: at.toISOString(),
        answer: factsOf(vesVehicle(registration), registration, at) as Extract<
          SourceAnswer,
          { found: true }
        >,
      })),
    );
}

/**
 * The stand-in knowing these vehicles, limited as the provider documents its limit: `perSecond`
 * on average and bursts of `burst` (a token bucket; its 429 when empty). No limit: undefined.
 */
export async function standInFor(
  registrations: readonly string[],
  limit: Pick<PaceSettings, "perSecond" | "burst"> | undefined,
): Promise<VesStandIn> {
  const standIn = await startVesStandIn({
    ...(limit && { ratePerSecond: limit.perSecond, burst: limit.burst }),
    keepRequests: false,
  });
  for (const registration of registrations)
    standIn.vehicles.set(registration, vesVehicle(registration));
  return standIn;
}

/** The refresher with DVLA VES on, to the stand-in, paced at `pace` by a pacer of its own. */
export function vesRefresher(
  store: Store,
  standIn: VesStandIn,
  pace: PaceSettings,
): Refresher {
  // The service's own wiring (index.ts), so the bench measures what production runs.
  const refresher = openSources(
    {
      ves: { baseUrl: standIn.url, apiKey: "ves-test-key", pace },
      freshForMs: FRESH_FOR_MS,
      waitMs: WAIT_MS,
      bulkWaitMs: BULK_WAIT_MS,
    },
    {
      store,
      limits: memoryLimitStore,
      now: () => new Date(),
      logger: silentLogger,
    },
  );
  if (!refresher) throw new Error("The bench's settings turn no source on.");
  return refresher;
}

/** The service app on `store`, with this refresher on, or with no register. */
export function serviceApp(store: Store, refresher?: Refresher): App {
  return createApp(
    testAppDeps(store, {
      sandbox: false,
      ...(refresher && {
        sources: () => ({
          refresher,
          waitMs: WAIT_MS,
          bulkWaitMs: BULK_WAIT_MS,
        }),
      }),
    }),
  );
}

export async function internalKey(store: Store, name: string): Promise<string> {
  return (await issueApiKey(store, "internal", name, new Date())).key;
}

/** Requests the stand-in has answered so far, whatever their status. */
export const answered = (standIn: VesStandIn): number =>
  [...standIn.counts.byStatus.values()].reduce((sum, n) => sum + n, 0);
