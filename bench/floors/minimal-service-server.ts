// `node bench/floors/minimal-service-server.ts <port> <database>`: the service's floor, the
// cheapest honest server answering GET /v1/vehicle/:registration/insurance from the service's
// own SQLite file, so the bench can say what the service costs beyond the job itself.
//
// It does what the service must do for that answer: the X-API-Key checked against the keys'
// SHA-256 hashes, a per-key count per minute with the three X-RateLimit-* headers and a 429
// past the plan's limit, the registration normalised and validated (400), one prepared
// statement, the service's JSON answer built by the service's own insuranceStatus and
// answerVehicle (404 problem when not found), and an asynchronous access-log line per request.
//
// It leaves out: request ids (none made, none echoed, none in its problem documents), the plate's
// keyed hash in the log, the sandbox plates, point-in-time questions (date, asKnownAt), the
// look-alike suggestions on a 404, keys made or revoked after it started (it reads them once),
// a data import's new freshness (read once), the rate limit of requests without a valid key
// and the wrong-key budget, Redis, readiness and health, OpenAPI, the other routes (compliance,
// bulk), 405s and its own problem for unknown routes, body and header limits, connection
// guards, error handling beyond Hono's default 500, and a graceful stop.
import { createHash } from "node:crypto";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import {
  API_KEY_HEADER,
  type InsuranceRecord,
  parseRegistration,
  PLAN_LIMITS,
  RATE_LIMIT_WINDOW_SECONDS,
  ROUTE_PATTERNS,
  ukDate,
} from "@vics/shared";
import { memoryLimitStore } from "@vics/server-kit/memory-rate-limiter";
import { problemResponse } from "@vics/server-kit/problem-response";
import { countedDecision } from "@vics/server-kit/rate-limiter";
import { rateLimitHeaders } from "@vics/server-kit/rate-limit-headers";
import type { ServerEnv } from "@vics/server-kit/server-env";
import { answerVehicle } from "../../service/src/domain/bulk.ts";
import { insuranceStatus } from "../../service/src/domain/insurance.ts";
import { problems } from "../../service/src/http/problems.ts";
import { accessLog } from "./access-log.ts";
import { openMinimalStore } from "./minimal-service-store.ts";

const [port, databasePath] = process.argv.slice(2);
if (!port || !databasePath)
  throw new Error("usage: minimal-service-server.ts <port> <database>");

const store = openMinimalStore(databasePath);
// The service's memory limiter's window: a count per key for a minute from its first request.
const count = memoryLimitStore.countingWindow!({
  points: 1,
  duration: RATE_LIMIT_WINDOW_SECONDS,
  keyPrefix: "plan",
});
const dataAsOf =
  store.insuranceAsOf === undefined ? {} : { insurance: store.insuranceAsOf };

const app = new Hono<ServerEnv>();
app.use(accessLog());

app.get(ROUTE_PATTERNS.insurance, (c) => {
  const presented = c.req.header(API_KEY_HEADER);
  const keyHash = presented
    ? createHash("sha256").update(presented, "utf8").digest("hex")
    : undefined;
  const plan = keyHash === undefined ? undefined : store.keys.get(keyHash);
  if (keyHash === undefined || plan === undefined)
    return problemResponse(
      c,
      presented ? problems.invalidKey() : problems.missingKey(),
    );
  const decision = countedDecision(PLAN_LIMITS[plan], count(keyHash));
  for (const [name, value] of Object.entries(rateLimitHeaders(decision)))
    c.header(name, value);
  if (!decision.allowed)
    return problemResponse(c, problems.rateLimited(decision));
  const parsed = parseRegistration(c.req.param("registration"));
  if (!parsed.ok)
    return problemResponse(c, problems.invalidRegistration(parsed.message));
  const facts = store.findInsurance(parsed.registration);
  if (!facts)
    return problemResponse(c, problems.vehicleNotFound(parsed.registration));
  const record: InsuranceRecord = {
    registration: facts.registration,
    ...insuranceStatus(facts.policies, ukDate(new Date())),
    vehicle: answerVehicle(facts),
    lastUpdated: facts.lastUpdated,
    dataAsOf,
  };
  return c.json(record);
});

serve({ fetch: app.fetch, hostname: "127.0.0.1", port: Number(port) });
