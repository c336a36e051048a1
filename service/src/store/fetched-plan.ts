// What a batch of fetched facts changes (fetched-facts.ts): worked out once, in JavaScript,
// for both engines; each engine's writer then stores the plan as its idiom has it.
import { ukDate, addDays, addYears, type IsoDate } from "@vics/shared";
import type { MotTest, TaxRecord } from "../domain/compliance.ts";
import type { FactKind, SourceAnswer, SourceName } from "../sources/source.ts";
import {
  COLOR_NOT_GIVEN,
  type FetchedFacts,
  type FreshMark,
  instant,
  MODEL_NOT_GIVEN,
} from "./fetched-facts.ts";

/** What a fetch may change of a vehicle VICS holds. */
export interface HeldVehicle {
  model: string;
  tax: TaxRecord;
  /** In test-date order. */
  motTests: MotTest[];
  updatedAt: string;
}

/** A vehicle's version after a batch, learned at `at` (the latest fetch that changed it). */
export interface FetchedVersion {
  registration: string;
  at: string;
  /** The source of the latest change: vehicle_history names it on the version it ends. */
  source: SourceName;
  model: string;
  tax: TaxRecord;
  /** Every test, in date order (PostgreSQL writes the whole array). */
  motTests: MotTest[];
  /** The tests new or with a new expiry (SQLite upserts only these). */
  motWrites: MotTest[];
}

export interface NewVehicle extends FetchedVersion {
  make: string;
  year: number;
  color: string;
  firstRegistered: IsoDate;
}

export interface FetchedPlan {
  added: NewVehicle[];
  changed: FetchedVersion[];
  unchanged: number;
  skipped: number;
  /** One per (registration, kind): the latest fetch of it in the batch. */
  fresh: FreshMark[];
  /** The earliest MOT test written, for meta's history_from. */
  earliestTest?: IsoDate;
  /** The earliest change, for meta's data_since when the database had no data before. */
  firstChange?: string;
}

interface Draft {
  model: string;
  tax: TaxRecord;
  tests: Map<IsoDate, IsoDate>;
  writes: Map<IsoDate, IsoDate>;
  at?: string;
  source?: SourceName;
}

const sameTax = (a: TaxRecord, b: TaxRecord) =>
  a.sorn === b.sorn && a.dueDate === b.dueDate;

/**
 * The MOT test a DVLA expiry stands for: a certificate runs a year less a day from its test
 * (so the test is the day after the expiry, a year back: a 29 February expiry is a test on
 * 1 March), and a test done early is never dated after the UK day it was fetched.
 */
export function testForExpiry(expiresOn: IsoDate, fetchedAt: string): MotTest {
  const fromExpiry = addYears(addDays(expiresOn, 1), -1);
  const today = ukDate(new Date(fetchedAt));
  return { testedOn: fromExpiry < today ? fromExpiry : today, expiresOn };
}

function apply(draft: Draft, { source, fetchedAt, answer }: FetchedFacts) {
  let changed = false;
  const setTest = ({ testedOn, expiresOn }: MotTest) => {
    if (draft.tests.get(testedOn) === expiresOn) return;
    draft.tests.set(testedOn, expiresOn);
    draft.writes.set(testedOn, expiresOn);
    changed = true;
  };
  if (answer.tax && !sameTax(answer.tax, draft.tax)) {
    draft.tax = { sorn: answer.tax.sorn, dueDate: answer.tax.dueDate };
    changed = true;
  }
  if (answer.mot?.kind === "history") answer.mot.tests.forEach(setTest);
  if (answer.mot?.kind === "expiry" && answer.mot.expiresOn !== null) {
    const expiry = answer.mot.expiresOn;
    if (![...draft.tests.values()].includes(expiry))
      setTest(testForExpiry(expiry, fetchedAt));
  }
  const model = answer.vehicle?.model;
  if (model && model !== MODEL_NOT_GIVEN && draft.model === MODEL_NOT_GIVEN) {
    draft.model = model;
    changed = true;
  }
  if (changed && (draft.at === undefined || fetchedAt >= draft.at)) {
    draft.at = fetchedAt;
    draft.source = source;
  }
}

const byDate = (tests: Map<IsoDate, IsoDate>): MotTest[] =>
  [...tests]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([testedOn, expiresOn]) => ({ testedOn, expiresOn }));

/** The details of a vehicle VICS does not hold, merged from its answers (later ones win). */
function newDetails(answers: readonly FetchedFacts[]) {
  const details = Object.assign(
    {},
    ...answers.map(({ answer }) => answer.vehicle ?? {}),
  ) as NonNullable<Extract<SourceAnswer, { found: true }>["vehicle"]>;
  const { make, year, firstRegistered } = details;
  if (!make || year === undefined || !firstRegistered) return undefined;
  return {
    make,
    year,
    firstRegistered,
    color: details.color || COLOR_NOT_GIVEN,
    model: details.model || MODEL_NOT_GIVEN,
  };
}

/** What `batch` changes of the vehicles `held` (keyed by registration; absent: not held). */
export function planFetched(
  batch: readonly FetchedFacts[],
  held: ReadonlyMap<string, HeldVehicle>,
): FetchedPlan {
  const plan: FetchedPlan = {
    added: [],
    changed: [],
    unchanged: 0,
    skipped: 0,
    fresh: [],
  };
  const groups = Map.groupBy(
    batch
      .map((facts) => ({ ...facts, fetchedAt: instant(facts.fetchedAt) }))
      .sort((a, b) => (a.fetchedAt < b.fetchedAt ? -1 : 1)),
    (facts) => facts.answer.registration,
  );
  // In registration order: the freshness rows go into their primary key in its order.
  for (const registration of [...groups.keys()].sort()) {
    const answers = groups.get(registration)!;
    const before = held.get(registration);
    const details = before ? undefined : newDetails(answers);
    if (!before && !details) {
      plan.skipped++;
      continue;
    }
    const draft: Draft = {
      model: before?.model ?? details!.model,
      tax: before?.tax ?? { sorn: false, dueDate: null },
      tests: new Map(before?.motTests.map((t) => [t.testedOn, t.expiresOn])),
      writes: new Map(),
    };
    for (const facts of answers) apply(draft, facts);
    const fresh = new Map<FactKind, FreshMark>();
    // A kind asked for and not in the answer is fresh too: the register has nothing newer.
    for (const { source, fetchedAt, answer, asked = [] } of answers)
      for (const kind of ["tax", "mot", "vehicle"] as const)
        if (answer[kind] !== undefined || asked.includes(kind))
          fresh.set(kind, { registration, kind, source, fetchedAt });
    plan.fresh.push(...fresh.values());
    const last = answers.at(-1)!;
    // Never before the version it replaces: a version's period must not run backwards.
    const learned = draft.at ?? last.fetchedAt;
    const at =
      before && before.updatedAt > learned ? before.updatedAt : learned;
    const version: FetchedVersion = {
      registration,
      at,
      source: draft.source ?? last.source,
      model: draft.model,
      tax: draft.tax,
      motTests: byDate(draft.tests),
      // A vehicle not held starts with no tests: each of its tests is a write.
      motWrites: byDate(draft.writes),
    };
    if (details) plan.added.push({ ...details, ...version });
    else if (draft.at !== undefined) plan.changed.push(version);
    else {
      plan.unchanged++;
      continue;
    }
    for (const test of version.motWrites)
      if (!plan.earliestTest || test.testedOn < plan.earliestTest)
        plan.earliestTest = test.testedOn;
    if (!plan.firstChange || at < plan.firstChange) plan.firstChange = at;
  }
  return plan;
}
