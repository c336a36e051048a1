// Facts fetched from a live source (issue 35, docs/sources.md): each answer that changes a
// fact becomes the vehicle's new version, the old one kept in vehicle_history as an import
// keeps it (decisions 040 and 041), and each fact fetched is marked fresh, changed or not.
// What changes is worked out by fetched-plan.ts, the same for both engines; their writers
// only store it.
import {
  type FactKind,
  type SourceAnswer,
  type SourceErrorKind,
  type SourceName,
} from "../sources/source.ts";

/** The model of a vehicle first known from a register that did not give one. */
export const MODEL_NOT_GIVEN = "Not given by the register";
/** The colour of a vehicle first known from a register that did not give one. */
export const COLOR_NOT_GIVEN = "Not given by the register";

export interface FetchedFacts {
  source: SourceName;
  /** ISO instant the source answered. */
  fetchedAt: string;
  answer: Extract<SourceAnswer, { found: true }>;
  /**
   * The kinds the source was asked for: each is marked fresh even when the answer lacks it (a
   * VES answer with no tax status, or Taxed with no due date), so it is not asked again at
   * once. A kind the answer carries is marked fresh whether asked or not.
   */
  asked?: readonly FactKind[];
}

/** Thrown, having written nothing, when another process holds the database's write lock. */
export class StoreBusyError extends Error {
  constructor(options?: ErrorOptions) {
    super(
      "The database is busy with another writer (an import?): nothing was stored; try again later.",
      options,
    );
    this.name = "StoreBusyError";
  }
}

export interface Freshness {
  source: SourceName;
  fetchedAt: string;
}

export type SourceOutcome =
  | { source: SourceName; at: string; ok: true }
  | {
      source: SourceName;
      at: string;
      ok: false;
      kind: SourceErrorKind;
      message: string;
    };

export interface SourceState {
  source: SourceName;
  lastSuccessAt: string | null;
  lastErrorAt: string | null;
  lastError: { kind: SourceErrorKind; message: string } | null;
}

/** Per registration; `skipped`: vehicles VICS does not hold whose answer lacked the details. */
export interface FetchedCounts {
  added: number;
  changed: number;
  unchanged: number;
  skipped: number;
}

export interface FetchedFactStore {
  /**
   * In one transaction: each answer becomes the vehicle's new version when it changes a fact
   * (the old version kept, superseded when it was fetched, with its source named), and each
   * (registration, kind) fetched is marked fresh whether or not it changed anything. A vehicle
   * VICS does not hold is added from the answer's make, year and first registration; without
   * them it is skipped (and not marked fresh).
   */
  recordFetched(batch: readonly FetchedFacts[]): Promise<FetchedCounts>;
  /** Per registration, per kind, when and from which source it was last fetched. */
  freshness(
    registrations: readonly string[],
  ): Promise<Map<string, Partial<Record<FactKind, Freshness>>>>;
  /** Held vehicles whose `kind` was last fetched before `olderThan`, or never. */
  countStale(kind: FactKind, olderThan: string): Promise<number>;
  recordSourceOutcome(outcome: SourceOutcome): Promise<void>;
  /** The sources with an outcome recorded, by name; one never heard from is not there. */
  sourceStates(): Promise<SourceState[]>;
}

export interface FreshMark {
  registration: string;
  kind: FactKind;
  source: SourceName;
  fetchedAt: string;
}

/** An ISO instant as both engines keep and compare it (toISOString's form). */
export const instant = (text: string): string => new Date(text).toISOString();

/** freshness()'s answer from the rows both engines read. */
export function freshnessMap(
  rows: Iterable<FreshMark>,
): Map<string, Partial<Record<FactKind, Freshness>>> {
  const found = new Map<string, Partial<Record<FactKind, Freshness>>>();
  for (const { registration, kind, source, fetchedAt } of rows) {
    const kinds = found.get(registration) ?? {};
    kinds[kind] = { source, fetchedAt };
    found.set(registration, kinds);
  }
  return found;
}
