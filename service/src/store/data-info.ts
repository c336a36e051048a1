// What a database knows about its own data (docs/decisions/041-point-in-time-answers.md):
// since when it holds any, the earliest day its records cover, and how fresh each source is.
// Both engines keep these in their `meta` table under the same keys.
import type { ImportKind } from "@vics/shared/import/rows";
import type { IsoDate } from "@vics/shared";
import type { SeedOptions } from "../seed/seed-data.ts";
import type { VehicleFacts } from "../domain/vehicle-facts.ts";

/** The sources an answer is made from; each is refreshed on its own. */
export const SOURCES = ["insurance", "mot", "tax", "fines"] as const;
export type Source = (typeof SOURCES)[number];

export interface DataInfo {
  /** The instant VICS first held data (the seeding, or the first applied import). */
  since?: string;
  /** The earliest day a held record covers: the first policy start or MOT test. */
  historyFrom?: IsoDate;
  /** Per source, the instant its data was current. */
  asOf: Partial<Record<Source, string>>;
  /**
   * The synthetic fleet this database was seeded with, if it was: its size and day. Kept after
   * imports (an import over it changes only what it loads), so the data page can say so.
   */
  seeded?: { vehicles: number; on: IsoDate };
}

export const META_KEYS = {
  since: "data_since",
  historyFrom: "history_from",
  asOf: (source: Source) => `as_of_${source}`,
  /** Written by a seeding only (seed-database.ts): the synthetic fleet's day and size. */
  seededOn: "seeded_on",
  seededVehicles: "vehicle_count",
} as const;

/** The source each kind of import refreshes; vehicles are the register the others hang on. */
export const KIND_SOURCE: Record<ImportKind, Source | undefined> = {
  vehicles: undefined,
  policies: "insurance",
  mot: "mot",
  tax: "tax",
  fines: "fines",
};

export function dataInfoFromMeta(
  read: (key: string) => string | undefined,
): DataInfo {
  const asOf: DataInfo["asOf"] = {};
  for (const source of SOURCES) {
    const value = read(META_KEYS.asOf(source));
    if (value !== undefined) asOf[source] = value;
  }
  const seededOn = read(META_KEYS.seededOn);
  const seededVehicles = Number(read(META_KEYS.seededVehicles));
  return {
    since: read(META_KEYS.since),
    historyFrom: read(META_KEYS.historyFrom),
    asOf,
    ...(seededOn !== undefined &&
      Number.isInteger(seededVehicles) && {
        seeded: { vehicles: seededVehicles, on: seededOn },
      }),
  };
}

/** When a seeding happened: `seededAt`, else the start of its day (UTC). */
export const seededAt = (options: SeedOptions): string =>
  options.seededAt ?? `${options.today}T00:00:00.000Z`;

/**
 * The vehicles as they go by, noting the earliest policy start and MOT test among them, for
 * the seeding's `history_from`.
 */
export function noteEarliestDay(vehicles: Iterable<VehicleFacts>): {
  vehicles: Iterable<VehicleFacts>;
  earliest: () => IsoDate | undefined;
} {
  let earliest: IsoDate | undefined;
  const note = (day: IsoDate) => {
    if (earliest === undefined || day < earliest) earliest = day;
  };
  return {
    vehicles: (function* () {
      for (const vehicle of vehicles) {
        for (const policy of vehicle.policies) note(policy.validFrom);
        for (const test of vehicle.motTests) note(test.testedOn);
        yield vehicle;
      }
    })(),
    earliest: () => earliest,
  };
}

/** The meta rows a seeding writes beside its vehicles: every source is as of the seeding. */
export function seedingMeta(
  options: SeedOptions,
  earliest: IsoDate | undefined,
): [key: string, value: string][] {
  const at = seededAt(options);
  return [
    [META_KEYS.since, at],
    ...(earliest === undefined
      ? []
      : [[META_KEYS.historyFrom, earliest] as [string, string]]),
    ...SOURCES.map((source): [string, string] => [META_KEYS.asOf(source), at]),
  ];
}
