import { type InsuranceRecord, ROUTE_PATTERNS } from "@vics/shared";
import type { Hono } from "hono";
import type { AppDeps } from "../app-deps.ts";
import { insuranceStatus } from "../domain/insurance.ts";
import type { AppEnv } from "../http/app-env.ts";
import { requireApiKey } from "../http/rate-limit.ts";
import { lookUpVehicle } from "./vehicle-lookup.ts";

export function insuranceRoute(app: Hono<AppEnv>, deps: AppDeps): void {
  app.get(ROUTE_PATTERNS.insurance, requireApiKey, async (c) => {
    const { facts, today } = await lookUpVehicle(
      deps,
      c.req.param("registration"),
      c.get("rateLimit"),
    );
    const record: InsuranceRecord = {
      registration: facts.registration,
      ...insuranceStatus(facts.policies, today),
      vehicle: facts.vehicle,
      lastUpdated: facts.lastUpdated,
    };
    return c.json(record);
  });
}
