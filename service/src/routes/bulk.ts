import { bulkAnswer, ROUTE_PATTERNS } from "@vics/shared";
import {
  limitBulkBody,
  readBulkBody,
  requireJsonBody,
} from "@vics/server-kit/bulk-body";
import type { Hono } from "hono";
import type { AppDeps } from "../app-deps.ts";
import {
  bulkComplianceItem,
  bulkInsuranceItem,
  type BulkOutcome,
} from "../domain/bulk.ts";
import type { IsoDate } from "@vics/shared";
import type { AppEnv } from "../http/app-env.ts";
import { requireApiKey } from "../http/rate-limit.ts";
import { SOURCES, type Source } from "../store/data-info.ts";
import { dataAsOf } from "./answer-time.ts";
import { lookUpVehicles } from "./bulk-lookup.ts";
import { answerSources } from "../sources/answer-sources.ts";
import {
  factsAt,
  findInsurancesAt,
  type FindManyAt,
} from "./vehicle-lookup.ts";
import type { InsuranceFacts } from "../store/store.ts";

/**
 * The plans whose bulk checks may bring the registers plates none of them answered for
 * before: a trial or standard key's 1,000 made-up plates a request would spend the registers'
 * day quota for everyone (decision 059).
 */
const PLANS_ASKING_FOR_NEW: ReadonlySet<string> = new Set([
  "fleet",
  "internal",
]);

/**
 * A bulk check: the key, a JSON body of at most 64 KiB, one lookup (`find`) for the whole list;
 * the checks differ only in what they read and the item each looked-up registration becomes.
 */
export function bulkRoute<
  Facts extends InsuranceFacts,
  Item extends { error?: string },
>(
  path: string,
  find: FindManyAt<Facts>,
  toItem: (outcome: BulkOutcome<Facts>, today: IsoDate) => Item,
  sources: readonly Source[],
  options: { live?: boolean } = {},
) {
  return (app: Hono<AppEnv>, deps: AppDeps): void => {
    app.post(path, requireApiKey, requireJsonBody, limitBulkBody, async (c) => {
      const { registrations, date, asKnownAt } = await readBulkBody(c);
      const { outcomes, today, info, asOf, live } = await lookUpVehicles(
        deps,
        registrations,
        c.get("rateLimit"),
        { date, asKnownAt },
        find,
        {
          ...options,
          newVehicles: PLANS_ASKING_FOR_NEW.has(c.get("apiKey")?.plan ?? ""),
        },
      );
      const now = deps.now();
      const item = (outcome: BulkOutcome<Facts>) => {
        const answered = toItem(outcome, today);
        const factSources =
          live &&
          deps.sources &&
          !answered.error &&
          answerSources(
            live.freshness.get(outcome.registration),
            deps.sources.refresher.sources,
            now,
          );
        return factSources ? { ...answered, factSources } : answered;
      };
      return c.json(
        bulkAnswer(outcomes.map(item), {
          dataAsOf: dataAsOf(info, sources),
          ...(asOf && { asOf }),
        }),
      );
    });
  };
}

export const bulkInsuranceRoute = bulkRoute(
  ROUTE_PATTERNS.bulkInsurance,
  findInsurancesAt,
  bulkInsuranceItem,
  ["insurance"],
);

/** An extension beside the interface document (docs/decisions/013-bulk-compliance-extension.md). */
export const bulkComplianceRoute = bulkRoute(
  ROUTE_PATTERNS.bulkCompliance,
  factsAt,
  bulkComplianceItem,
  SOURCES,
  { live: true },
);
