import { type BulkComplianceResult, ROUTE_PATTERNS } from "@vics/shared";
import type { Hono } from "hono";
import type { AppDeps } from "../app-deps.ts";
import { bulkAnswer, bulkComplianceItem } from "../domain/bulk.ts";
import type { AppEnv } from "../http/app-env.ts";
import {
  bulkRegistrations,
  limitBulkBody,
  requireJsonBody,
} from "../http/bulk-body.ts";
import { requireApiKey } from "../http/rate-limit.ts";
import { lookUpVehicles } from "./bulk-lookup.ts";

/** An extension beside the interface document (docs/decisions/013-bulk-compliance-extension.md). */
export function bulkComplianceRoute(app: Hono<AppEnv>, deps: AppDeps): void {
  app.post(
    ROUTE_PATTERNS.bulkCompliance,
    requireApiKey,
    requireJsonBody,
    limitBulkBody,
    async (c) => {
      const { outcomes, today } = await lookUpVehicles(
        deps,
        await bulkRegistrations(c),
        c.get("rateLimit"),
      );
      const answer: BulkComplianceResult = bulkAnswer(
        outcomes.map((outcome) => bulkComplianceItem(outcome, today)),
      );
      return c.json(answer);
    },
  );
}
