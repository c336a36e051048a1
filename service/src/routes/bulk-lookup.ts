import {
  type AsOf,
  BULK_ERRORS,
  parseRegistration,
  type PointInTime,
} from "@vics/shared";
import type { AppDeps } from "../app-deps.ts";
import type { BulkOutcome } from "../domain/bulk.ts";
import type { IsoDate } from "@vics/shared";
import { problems } from "../http/problems.ts";
import type { RateLimitDecision } from "@vics/server-kit/rate-limiter";
import {
  bulkSandboxEffect,
  sandboxBulkError,
  sandboxOutcome,
  slowSandboxVehicle,
} from "../sandbox.ts";
import type { InsuranceFacts } from "../store/store.ts";
import type { DataInfo } from "../store/data-info.ts";
import { answerTime } from "./answer-time.ts";
import type { FindManyAt } from "./vehicle-lookup.ts";
import type { RefreshReport } from "../sources/refresher.ts";

export interface BulkLookup<Facts> {
  /** One per submitted registration, in the submitted order, duplicates kept. */
  outcomes: BulkOutcome<Facts>[];
  /** The UK date judged: today, or the date asked (decision 041). */
  today: IsoDate;
  info: DataInfo;
  /** Only when the client asked for a date or an instant. */
  asOf?: AsOf;
  /** What the live registers said, when the check asked them (docs/sources.md). */
  live?: RefreshReport;
}

/**
 * Validation, then the sandbox's effect on the whole request, then ONE store call (`find`) for
 * every distinct valid registration: a constant number of queries, however long the list.
 */
export async function lookUpVehicles<Facts extends InsuranceFacts>(
  deps: Pick<
    AppDeps,
    "store" | "now" | "sandbox" | "sandboxDelayMs" | "sleep" | "sources"
  >,
  submitted: readonly string[],
  rateLimit: RateLimitDecision,
  asked: PointInTime,
  find: FindManyAt<Facts>,
  options: {
    live?: boolean;
    /** Whether the registers may be asked about vehicles they never answered for. */
    newVehicles?: boolean;
  } = {},
): Promise<BulkLookup<Facts>> {
  // Each text and its registration (undefined when it is none), without copying the reading.
  const parsed = submitted.map((text) => {
    const reading = parseRegistration(text);
    return {
      text,
      registration: reading.ok ? reading.registration : undefined,
    };
  });
  const valid = parsed.flatMap(({ registration }) =>
    registration === undefined ? [] : [registration],
  );
  const sandboxed = (registration: string) =>
    deps.sandbox && sandboxOutcome(registration) !== undefined;
  const effect = deps.sandbox
    ? bulkSandboxEffect(valid)
    : { throttled: false, slow: false };
  if (effect.throttled) throw problems.rateLimited(rateLimit);
  if (effect.slow) await deps.sleep(deps.sandboxDelayMs);
  const info = await deps.store.dataInfo();
  const time = answerTime(asked, deps.now(), info);
  const today = time.date;

  const wanted = [...new Set(valid.filter((r) => !sandboxed(r)))];
  // Within the bulk budget in all; what is left refreshes in the background, behind single checks.
  // Only keys that may spend the registers' quota on vehicles nobody asked about before (the
  // fleet and internal plans: the proxy's) bring new plates to them (decision 059).
  const live =
    options.live &&
    deps.sources &&
    wanted.length > 0 &&
    asked.asKnownAt === undefined
      ? await deps.sources.refresher.refresh(wanted, {
          budgetMs: deps.sources.bulkWaitMs,
          priority: "bulk",
          newVehicles: options.newVehicles ?? false,
        })
      : undefined;
  const found =
    wanted.length > 0
      ? await find(deps.store, wanted, time)
      : new Map<string, Facts>();

  const outcomes = parsed.map((entry): BulkOutcome<Facts> => {
    // An invalid registration keeps the text it was submitted as.
    const { registration } = entry;
    if (registration === undefined)
      return { registration: entry.text, error: BULK_ERRORS.invalid };
    if (sandboxed(registration)) {
      const error = sandboxBulkError(registration);
      if (error) return { registration, error };
      // The slow sandbox vehicle has every fact, so it is any check's Facts.
      const facts: InsuranceFacts = slowSandboxVehicle(registration, today);
      return { registration, facts: facts as Facts };
    }
    const facts = found.get(registration);
    if (facts) return { registration, facts };
    // A vehicle VICS does not hold whose registers could not answer yet: retry it later.
    if (live?.unrefreshed.has(registration))
      return { registration, error: BULK_ERRORS.unavailable };
    return { registration, error: BULK_ERRORS.notFound };
  });
  return { outcomes, today, info, asOf: time.asOf, ...(live && { live }) };
}
