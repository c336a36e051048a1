import { type BulkResult, ROUTE_PATTERNS } from "@vics/shared";
import type { Hono } from "hono";
import type { AppDeps } from "../app-deps.ts";
import { bulkAnswer, bulkInsuranceItem } from "../domain/bulk.ts";
import type { AppEnv } from "../http/app-env.ts";
import {
  bulkRegistrations,
  limitBulkBody,
  requireJsonBody,
} from "../http/bulk-body.ts";
import { requireApiKey } from "../http/rate-limit.ts";
import { lookUpVehicles } from "./bulk-lookup.ts";

export function bulkInsuranceRoute(app: Hono<AppEnv>, deps: AppDeps): void {
  app.post(
    ROUTE_PATTERNS.bulkInsurance,
    requireApiKey,
    requireJsonBody,
    limitBulkBody,
    async (c) => {
      const { outcomes, today } = await lookUpVehicles(
        deps,
        await bulkRegistrations(c),
        c.get("rateLimit"),
      );
      const answer: BulkResult = bulkAnswer(
        outcomes.map((outcome) => bulkInsuranceItem(outcome, today)),
      );
      return c.json(answer);
    },
  );
}
