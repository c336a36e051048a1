import { type ComplianceRecord, ROUTE_PATTERNS } from "@vics/shared";
import type { Hono } from "hono";
import type { AppDeps } from "../app-deps.ts";
import { complianceVerdict } from "../domain/compliance.ts";
import type { AppEnv } from "../http/app-env.ts";
import { requireApiKey } from "../http/rate-limit.ts";
import { lookUpVehicle } from "./vehicle-lookup.ts";

export function complianceRoute(app: Hono<AppEnv>, deps: AppDeps): void {
  app.get(ROUTE_PATTERNS.compliance, requireApiKey, async (c) => {
    const { facts, now, today } = await lookUpVehicle(
      deps,
      c.req.param("registration"),
      c.get("rateLimit"),
    );
    const verdict = complianceVerdict(facts, today);
    const record: ComplianceRecord = {
      registration: facts.registration,
      compliant: verdict.compliant,
      checks: verdict.checks,
      lastChecked: now.toISOString(),
      details: verdict.details,
      vehicle: facts.vehicle,
    };
    return c.json(record);
  });
}
