import {
  type AsOf,
  type FactSources,
  lookalikeRegistrations,
  parseRegistration,
  type PointInTime,
  readPointInTime,
} from "@vics/shared";
import { ProblemError } from "@vics/server-kit/problem-error";
import type { AppDeps } from "../app-deps.ts";
import type { IsoDate } from "@vics/shared";
import { problems } from "../http/problems.ts";
import type { RateLimitDecision } from "@vics/server-kit/rate-limiter";
import {
  SandboxFailure,
  sandboxOutcome,
  slowSandboxVehicle,
} from "../sandbox.ts";
import type { VehicleFacts } from "../domain/vehicle-facts.ts";
import type { InsuranceFacts, Store } from "../store/store.ts";
import type { DataInfo } from "../store/data-info.ts";
import { type AnswerTime, answerTime } from "./answer-time.ts";
import { answerSources } from "../sources/answer-sources.ts";

export interface VehicleLookup<Facts extends InsuranceFacts = VehicleFacts> {
  facts: Facts;
  /** The check's instant (docs/contract.md). */
  now: Date;
  /** The UK date the checks are judged on: today, or the date asked (decision 041). */
  today: IsoDate;
  /** What the database knows of its data, for the answer's freshness. */
  info: DataInfo;
  /** Only when the client asked for a date or an instant. */
  asOf?: AsOf;
  /** Where the live facts came from, when a register gave any (docs/sources.md). */
  factSources?: FactSources;
}

/** `date` and `asKnownAt` from a query string or a body, or a 400 in words. */
export function askedPointInTime(input: Record<string, unknown>): PointInTime {
  // Most checks ask about now: no schema to run for that.
  if (input.date === undefined && input.asKnownAt === undefined) return {};
  const reading = readPointInTime(input);
  if (!reading.ok)
    throw new ProblemError(400, "MALFORMED_REQUEST", `${reading.detail}.`);
  return reading.asked;
}

/**
 * The periods (policies, MOT tests) from the version known at `time.knownAt`; road tax and
 * fines, which are states, from the version held at the end of the day asked, when that is
 * earlier and differs (decision 041). Versions that were never kept change nothing here.
 */
export async function factsAt(
  store: Pick<Store, "findVehicles">,
  registrations: readonly string[],
  time: AnswerTime,
): Promise<Map<string, VehicleFacts>> {
  const found = await store.findVehicles(registrations, time.knownAt);
  const { statesKnownAt } = time;
  if (statesKnownAt === undefined) return found;
  const later = [...found.values()]
    .filter((facts) => facts.lastUpdated > statesKnownAt)
    .map((facts) => facts.registration);
  if (later.length === 0) return found;
  const states = await store.findVehicles(later, statesKnownAt);
  for (const [registration, then] of states) {
    const facts = found.get(registration);
    if (facts)
      found.set(registration, { ...facts, tax: then.tax, fines: then.fines });
  }
  return found;
}

/** How a bulk check reads its vehicles for the time asked: all their facts, or fewer. */
export type FindManyAt<Facts extends InsuranceFacts> = (
  store: Store,
  registrations: readonly string[],
  time: AnswerTime,
) => Promise<Map<string, Facts>>;

/**
 * The bulk insurance check's lookup: as findInsuranceAt, one statement for the whole list and
 * any question, without the MOT tests, tax and fines its items never show.
 */
export const findInsurancesAt: FindManyAt<InsuranceFacts> = (
  store,
  registrations,
  time,
) => store.findInsurances(registrations, time.knownAt);

/** How a single check reads its vehicle for the time asked: all its facts, or fewer. */
export type FindAt<Facts extends InsuranceFacts> = (
  store: Store,
  registration: string,
  time: AnswerTime,
) => Promise<Facts | undefined>;

/**
 * Validation, then the sandbox answers, then the store (`find`): shared by both
 * single-vehicle checks.
 */
export async function lookUpVehicle<Facts extends InsuranceFacts>(
  deps: Pick<
    AppDeps,
    "store" | "now" | "sandbox" | "sandboxDelayMs" | "sleep" | "sources"
  >,
  rawRegistration: string,
  rateLimit: RateLimitDecision,
  asked: PointInTime,
  find: FindAt<Facts>,
  options: { live?: boolean } = {},
): Promise<VehicleLookup<Facts>> {
  const parsed = parseRegistration(rawRegistration);
  if (!parsed.ok) throw problems.invalidRegistration(parsed.message);
  const { registration } = parsed;
  const outcome = deps.sandbox ? sandboxOutcome(registration) : undefined;
  if (outcome === "not-found") throw problems.vehicleNotFound(registration);
  if (outcome === "error") throw new SandboxFailure(registration);
  if (outcome === "throttled") throw problems.rateLimited(rateLimit);
  if (outcome === "slow") await deps.sleep(deps.sandboxDelayMs);
  const now = deps.now();
  const info = await deps.store.dataInfo();
  const time = answerTime(asked, now, info);
  // The registers are asked about now: a question about what VICS knew then is not.
  const live =
    options.live && deps.sources && !outcome && asked.asKnownAt === undefined
      ? (deps.sources.refresher.freshNow(registration) ??
        (await deps.sources.refresher.refresh([registration], {
          budgetMs: deps.sources.waitMs,
        })))
      : undefined;
  const facts =
    outcome === "slow"
      ? slowSandboxVehicle(registration, time.date)
      : await find(deps.store, registration, time);
  if (!facts) {
    const why = live?.unrefreshed.get(registration);
    if (why) throw problems.sourceUnavailable(registration, why);
    throw problems.vehicleNotFound(
      registration,
      await heldLookalikes(deps, registration),
    );
  }
  const factSources =
    live &&
    deps.sources &&
    answerSources(
      live.freshness.get(registration),
      deps.sources.refresher.sources,
      deps.now(),
    );
  return {
    // The slow sandbox vehicle has every fact, so it is any check's Facts.
    facts: facts as Facts,
    now,
    today: time.date,
    info,
    asOf: time.asOf,
    ...(factSources && { factSources }),
  };
}

/** The compliance check's lookup: one statement for a question about now. */
export const findVehicleAt: FindAt<VehicleFacts> = async (
  store,
  registration,
  time,
) => {
  if (time.statesKnownAt === undefined)
    return store.findVehicle(registration, time.knownAt);
  return (await factsAt(store, [registration], time)).get(registration);
};

/**
 * The insurance check's lookup: policies are periods, read from the version known at
 * `knownAt` as factsAt reads them; the states it would read at the day's end (tax, fines) are
 * not part of an insurance answer, so one statement answers any question.
 */
export const findInsuranceAt: FindAt<InsuranceFacts> = (
  store,
  registration,
  time,
) => store.findInsurance(registration, time.knownAt);

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
