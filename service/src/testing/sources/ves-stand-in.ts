// A stand-in for DVLA's Vehicle Enquiry Service, on 127.0.0.1: it answers POST /v1/vehicles as
// DVLA's test environment does (ves-test-registrations.ts), with real dates from its clock, plus
// the vehicles a test puts in `vehicles`. Prism mocks the published document but answers one
// fixed vehicle with date-times for dates; this answers like the register. Switches: the accepted
// key (a wrong one gets the gateway's 403), a rate limit, a malformed body, a slow answer.
// The rate limit is the one providers document, "N requests a second on average, bursts of B"
// (DVSA's MOT History API: 15 and 10), which is API Gateway's token bucket: B tokens, refilled
// at N a second, one a request, 429 with Retry-After when none is left. (A count over any sliding
// second would refuse a pace the provider accepts.) Run as a process for the e2e suite and the bench:
//   node service/src/testing/sources/ves-stand-in.ts --port N --api-key-file F [--rate R [--burst B]]
// A process's test changes its state through /_stand-in/ routes, as with the MOT stand-in:
//   PUT /_stand-in/vehicles/{registration}  a VES vehicle (JSON) it answers from then on
//   PUT /_stand-in/api-key                  the key it accepts from then on (the body, as text):
//                                           the old one gets the gateway's 403, as a revoked key
import { readFileSync } from "node:fs";
import {
  createServer,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import { utcDate } from "@vics/shared";
import type { VesVehicle } from "../../sources/dvla-ves-vehicle.ts";
import { VES_TEST_ERRORS, vesTestVehicles } from "./ves-test-registrations.ts";

export interface VesStandInOptions {
  /** The key it accepts; default "ves-test-key". */
  apiKey?: string;
  /** Its clock: the test registrations' dates and the bucket's refill. Default: the real one. */
  now?: () => Date;
  /** Default: a free port. */
  port?: number;
  /** The bucket's refill, tokens a second; default no limit. */
  ratePerSecond?: number;
  /** The bucket's size, requests at once; default ratePerSecond. */
  burst?: number;
  /** false: `requests` stays empty and only `counts` grows, for runs of 100,000 (the bench). */
  keepRequests?: boolean;
}

/** One request as the stand-in saw it. */
export interface VesRequest {
  at: Date;
  registration: string | undefined;
  keyAccepted: boolean;
  contentType: string | undefined;
  accept: string | undefined;
  status: number;
}

export interface VesStandIn {
  /** The base URL createVesSource takes: http://127.0.0.1:port, no trailing slash. */
  url: string;
  /** Vehicles beyond the documented ones; one here wins over a test registration. */
  vehicles: Map<string, VesVehicle>;
  /** Every request so far, in order; its length is the count. */
  requests: VesRequest[];
  /** Requests so far by status, and when the first and last came (kept with keepRequests off). */
  counts: { byStatus: Map<number, number>; firstAt?: Date; lastAt?: Date };
  setApiKey(key: string): void;
  /** A new limit, its bucket full; burst defaults to perSecond. undefined: no limit. */
  setRate(perSecond: number | undefined, burst?: number): void;
  /** On: every vehicle's 200 is a body cut short, which is not JSON. */
  setMalformed(on: boolean): void;
  /** Milliseconds it waits before each answer. */
  delayMs: number;
  close(): Promise<void>;
}

const DOCUMENTED = /^[A-Z0-9]{1,7}$/;

export async function startVesStandIn(
  options: VesStandInOptions = {},
): Promise<VesStandIn> {
  const now = options.now ?? (() => new Date());
  let apiKey = options.apiKey ?? "ves-test-key";
  const bucket = tokenBucket();
  bucket.set(options.ratePerSecond, options.burst);
  let malformed = false;
  const vehicles = new Map<string, VesVehicle>();
  const requests: VesRequest[] = [];
  const counts: VesStandIn["counts"] = { byStatus: new Map() };
  const waits = new Set<NodeJS.Timeout>();

  /** The status, body and Retry-After seconds the test environment would answer. */
  function answer(request: IncomingMessage, registration: unknown) {
    const send = (status: number, payload: unknown, retryAfter?: number) => ({
      status,
      text: JSON.stringify(payload),
      retryAfter,
    });
    if (request.method !== "POST" || request.url !== "/v1/vehicles")
      return send(404, { message: "Not Found" });
    if (request.headers["x-api-key"] !== apiKey)
      return send(403, { message: "Forbidden" });
    const wait = bucket.take(now().getTime());
    if (wait !== undefined)
      return send(429, VES_TEST_ERRORS.ER19THR!.body, wait);
    if (typeof registration !== "string" || !DOCUMENTED.test(registration))
      return send(400, VES_TEST_ERRORS.ER19BAD!.body);
    const vehicle =
      vehicles.get(registration) ??
      vesTestVehicles(utcDate(now()))[registration];
    if (vehicle && malformed)
      return {
        status: 200,
        text: '{"registrationNumber":"',
        retryAfter: undefined,
      };
    if (vehicle) return send(200, vehicle);
    const refusal = VES_TEST_ERRORS[registration] ?? VES_TEST_ERRORS.ER19NFD!;
    return send(refusal.status, refusal.body, refusal.retryAfterSeconds);
  }

  /** A /_stand-in/ switch: 204 when done, 400 for a body it cannot use, 404 for no such switch. */
  function control(method: string | undefined, path: string, body: string) {
    const plate = /^\/_stand-in\/vehicles\/([^/]+)$/.exec(path)?.[1];
    if (method === "PUT" && plate !== undefined) {
      const vehicle = jsonOf(body);
      if (typeof vehicle !== "object" || vehicle === null) return 400;
      // As the adapter sends it: letters and digits alone, upper case.
      const registration = decodeURIComponent(plate)
        .replace(/\s+/g, "")
        .toUpperCase();
      vehicles.set(registration, vehicle as VesVehicle);
      return 204;
    }
    if (method === "PUT" && path === "/_stand-in/api-key") {
      const key = body.trim();
      if (key === "") return 400;
      apiKey = key;
      return 204;
    }
    return 404;
  }

  function handle(request: IncomingMessage, response: ServerResponse) {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      // Switches are not look-ups: they are not counted in `requests`.
      const path = request.url ?? "/";
      if (path.startsWith("/_stand-in/")) {
        response.writeHead(control(request.method, path, body)).end();
        return;
      }
      const registration = registrationIn(body);
      const { status, text, retryAfter } = answer(request, registration);
      const at = now();
      counts.byStatus.set(status, (counts.byStatus.get(status) ?? 0) + 1);
      counts.firstAt ??= at;
      counts.lastAt = at;
      if (options.keepRequests !== false)
        requests.push({
          at,
          registration:
            typeof registration === "string" ? registration : undefined,
          keyAccepted: request.headers["x-api-key"] === apiKey,
          contentType: request.headers["content-type"],
          accept: request.headers.accept,
          status,
        });
      const write = () => {
        response.writeHead(status, {
          "Content-Type": "application/json",
          ...(retryAfter !== undefined && {
            "Retry-After": String(retryAfter),
          }),
        });
        response.end(text);
      };
      if (standIn.delayMs <= 0) return write();
      const timer = setTimeout(() => {
        waits.delete(timer);
        write();
      }, standIn.delayMs);
      waits.add(timer);
    });
  }

  const server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  const standIn: VesStandIn = {
    url: `http://127.0.0.1:${port}`,
    vehicles,
    requests,
    counts,
    setApiKey: (key) => (apiKey = key),
    setRate: (perSecond, burst) => bucket.set(perSecond, burst),
    setMalformed: (on) => (malformed = on),
    delayMs: 0,
    async close() {
      for (const timer of waits) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return standIn;
}

/**
 * API Gateway's token bucket. Kept in thousandths of a token so that a whole rate refills in
 * whole units a millisecond: no rounding leaves a bucket a hair short of a token.
 */
function tokenBucket() {
  let rate: number | undefined;
  let size = 0;
  let units = 0;
  let at: number | undefined;
  return {
    set(perSecond: number | undefined, burst = perSecond) {
      if (
        perSecond !== undefined &&
        (!(perSecond > 0) || !(burst !== undefined && burst >= 1))
      )
        throw new RangeError("a rate above 0 and a burst of at least 1");
      rate = perSecond;
      size = (burst ?? 0) * 1000;
      units = size;
      at = undefined;
    },
    /** Takes a token at `ms`: undefined when there was one, else seconds until there is. */
    take(ms: number): number | undefined {
      if (rate === undefined) return undefined;
      // A clock set back (a test's) refills nothing.
      units = Math.min(size, units + Math.max(0, ms - (at ?? ms)) * rate);
      at = Math.max(ms, at ?? ms);
      if (units >= 1000) {
        units -= 1000;
        return undefined;
      }
      return Math.max(1, Math.ceil((1000 - units) / rate / 1000));
    },
  };
}

function jsonOf(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

function registrationIn(body: string): unknown {
  const parsed = jsonOf(body);
  return typeof parsed === "object" && parsed !== null
    ? (parsed as { registrationNumber?: unknown }).registrationNumber
    : undefined;
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      port: { type: "string", default: "0" },
      "api-key-file": { type: "string" },
      rate: { type: "string" },
      burst: { type: "string" },
    },
  });
  const keyFile = values["api-key-file"];
  const standIn = await startVesStandIn({
    port: Number(values.port),
    ...(keyFile && { apiKey: readFileSync(keyFile, "utf8").trim() }),
    ...(values.rate && { ratePerSecond: Number(values.rate) }),
    ...(values.burst && { burst: Number(values.burst) }),
  });
  console.log(standIn.url);
  for (const signal of ["SIGINT", "SIGTERM"] as const)
    process.once(
      signal,
      () => void standIn.close().then(() => process.exit(0)),
    );
}
