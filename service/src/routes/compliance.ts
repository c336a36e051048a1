import { type ComplianceRecord, ROUTE_PATTERNS } from "@vics/shared";
import type { Hono } from "hono";
import type { AppDeps } from "../app-deps.ts";
import { answerVehicle } from "../domain/bulk.ts";
import { complianceVerdict } from "../domain/compliance.ts";
import type { AppEnv } from "../http/app-env.ts";
import { jsonAnswer } from "../http/edge.ts";
import { requireApiKey } from "../http/rate-limit.ts";
import { SOURCES } from "../store/data-info.ts";
import { dataAsOf } from "./answer-time.ts";
import {
  askedPointInTime,
  findVehicleAt,
  lookUpVehicle,
} from "./vehicle-lookup.ts";

export function complianceRoute(app: Hono<AppEnv>, deps: AppDeps): void {
  app.get(ROUTE_PATTERNS.compliance, requireApiKey, async (c) => {
    const { facts, now, today, info, asOf, factSources } = await lookUpVehicle(
      deps,
      c.req.param("registration"),
      c.get("rateLimit"),
      askedPointInTime(c.req.query()),
      findVehicleAt,
      { live: true },
    );
    const verdict = complianceVerdict(facts, today);
    const record: ComplianceRecord = {
      registration: facts.registration,
      compliant: verdict.compliant,
      checks: verdict.checks,
      lastChecked: now.toISOString(),
      details: verdict.details,
      vehicle: answerVehicle(facts),
      dataAsOf: dataAsOf(info, SOURCES),
      ...(factSources && { factSources }),
      ...(asOf && { asOf }),
    };
    return jsonAnswer(c, record);
  });
}
