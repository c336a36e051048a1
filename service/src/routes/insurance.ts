import { type InsuranceRecord, ROUTE_PATTERNS } from "@vics/shared";
import type { Hono } from "hono";
import type { AppDeps } from "../app-deps.ts";
import { answerVehicle } from "../domain/bulk.ts";
import { insuranceStatus } from "../domain/insurance.ts";
import type { AppEnv } from "../http/app-env.ts";
import { jsonAnswer } from "../http/edge.ts";
import { requireApiKey } from "../http/rate-limit.ts";
import { dataAsOf } from "./answer-time.ts";
import {
  askedPointInTime,
  findInsuranceAt,
  lookUpVehicle,
} from "./vehicle-lookup.ts";

export function insuranceRoute(app: Hono<AppEnv>, deps: AppDeps): void {
  app.get(ROUTE_PATTERNS.insurance, requireApiKey, async (c) => {
    const { facts, today, info, asOf } = await lookUpVehicle(
      deps,
      c.req.param("registration"),
      c.get("rateLimit"),
      askedPointInTime(c.req.query()),
      findInsuranceAt,
    );
    const record: InsuranceRecord = {
      registration: facts.registration,
      ...insuranceStatus(facts.policies, today),
      vehicle: answerVehicle(facts),
      lastUpdated: facts.lastUpdated,
      dataAsOf: dataAsOf(info, ["insurance"]),
      ...(asOf && { asOf }),
    };
    return jsonAnswer(c, record);
  });
}
