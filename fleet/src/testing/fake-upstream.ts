// Test support: a scripted fake of the vehicle service, as a `fetch` for the real HTTP client
// (createHttpFleetClient), so the engine's scenarios run in Node with no mocking library and no
// server. Each call can be answered by a script; otherwise it gets a good answer. It counts
// calls, registrations and requests in flight, and can enforce a real fixed-window rate limit
// on a fake clock.
import {
  BULK_ERRORS,
  paths,
  ROUTE_PATTERNS,
  type BulkComplianceItem,
  type BulkItem,
  type ComplianceRecord,
  type Policy,
} from "@vics/shared";
import type { FleetClient } from "../fleet-client.ts";
import { createHttpFleetClient } from "../http-fleet-client.ts";
import {
  allChecks,
  bulkBody,
  bulkComplianceBody,
  CHECKS_PASS,
  policyFixture,
  problemResponse,
  rateLimitHeaders,
  VEHICLE,
  withHeaders,
} from "./answers.ts";

export type Endpoint = "bulk-insurance" | "bulk-compliance" | "compliance";

export interface UpstreamCall {
  endpoint: Endpoint;
  registrations: string[];
  /** Fake-clock time the request arrived. */
  at: number;
  /** 1-based, over every endpoint. */
  number: number;
  /** The rate-limit headers this call would carry (as the fake window counts it). */
  rateLimitHeaders: Record<string, string>;
}

/** A Response to send, or undefined for the good answer. */
export type Script = (
  call: UpstreamCall,
) => Response | undefined | Promise<Response | undefined>;

export interface UpstreamOptions {
  clock?: { now(): number };
  script?: Script;
  /** A fixed-window limit on the fake clock, like the service's; 429 over it. */
  window?: { limit: number; seconds: number };
  notFound?: readonly string[];
  notInsured?: readonly string[];
  nonCompliant?: readonly string[];
  /** Not insured, with the policy that lapsed (the others not insured were never insured). */
  lapsed?: Readonly<Record<string, Policy>>;
  /** Bulk compliance items without the policy extension (decision 021), as an older upstream. */
  complianceWithoutPolicies?: boolean;
  /** Real milliseconds each answer takes, so that requests overlap. */
  latencyMs?: number;
  /** The policy an insured vehicle has; policyFixture() unless given. */
  policy?: () => Policy;
}

export interface FakeUpstream {
  calls: UpstreamCall[];
  maxInFlight: number;
  /** How many requests carried this registration (to one endpoint, or to any). */
  requestsFor(registration: string, endpoint?: Endpoint): number;
  /** Calls that got a 429. */
  throttled: number;
  /**
   * The service's answer to a request for the v1 `path` (the request's own path less any
   * prefix, such as the proxy's /api): for a harness of its own, such as the web's msw.
   * A network failure is `Response.error()`.
   */
  handle(request: Request, path: string): Promise<Response>;
  /** The fake as a `fetch`: the v1 routes at any origin. */
  fetch: typeof fetch;
  /** The real HTTP client over that `fetch`, for the engine. */
  client: FleetClient;
}

const COMPLIANCE_PATH = new RegExp(
  `^${ROUTE_PATTERNS.compliance.replace(":registration", "([^/]+)")}$`,
);

export function fakeUpstream(options: UpstreamOptions = {}): FakeUpstream {
  const now = () => options.clock?.now() ?? Date.now();
  const policy = options.policy ?? (() => policyFixture());
  const notFound = new Set(options.notFound);
  const lapsed = options.lapsed ?? {};
  const notInsured = new Set([
    ...(options.notInsured ?? []),
    ...Object.keys(lapsed),
  ]);
  const nonCompliant = new Set(options.nonCompliant);
  const counts = new Map<string, number>();
  const window = { start: -Infinity, used: 0 };
  let inFlight = 0;

  function rateLimit(at: number): {
    headers: Record<string, string>;
    over: boolean;
  } {
    const limits = options.window ?? { limit: 1200, seconds: 60 };
    if (at >= window.start + limits.seconds * 1000) {
      window.start = at;
      window.used = 0;
    }
    window.used += 1;
    const over = options.window !== undefined && window.used > limits.limit;
    const reset = Math.ceil((window.start + limits.seconds * 1000 - at) / 1000);
    const remaining = options.window
      ? Math.max(0, limits.limit - window.used)
      : 1000;
    return { headers: rateLimitHeaders(remaining, limits.limit, reset), over };
  }

  async function answer(
    endpoint: Endpoint,
    registrations: string[],
    good: () => Response,
  ): Promise<Response> {
    inFlight += 1;
    upstream.maxInFlight = Math.max(upstream.maxInFlight, inFlight);
    try {
      if (options.latencyMs) await pause(options.latencyMs);
      for (const registration of registrations) {
        const key = `${endpoint} ${registration}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      const at = now();
      const { headers, over } = rateLimit(at);
      const call = {
        endpoint,
        registrations,
        at,
        number: upstream.calls.length + 1,
        rateLimitHeaders: headers,
      };
      upstream.calls.push(call);
      // A script may change call.rateLimitHeaders and return undefined: the good answer carries them.
      const response = over
        ? problemResponse(429, "RATE_LIMITED", {
            ...headers,
            "Retry-After": headers["X-RateLimit-Reset"] ?? "60",
          })
        : ((await options.script?.(call)) ??
          withHeaders(good(), call.rateLimitHeaders));
      if (response.status === 429) upstream.throttled += 1;
      return response;
    } finally {
      inFlight -= 1;
    }
  }

  const insuranceItem = (registration: string): BulkItem =>
    notFound.has(registration)
      ? { registration, insured: false, error: BULK_ERRORS.notFound }
      : { registration, ...insurance(registration), vehicle: VEHICLE };

  /** An item's insurance as the service words it: insured and its policy, or the last one. */
  const insurance = (registration: string) =>
    notInsured.has(registration)
      ? { insured: false, lastPolicy: lapsed[registration] ?? null }
      : { insured: true, policy: policy() };

  const complianceItem = (registration: string): BulkComplianceItem => {
    if (notFound.has(registration)) {
      return {
        registration,
        compliant: false,
        checks: allChecks(false),
        error: BULK_ERRORS.notFound,
      };
    }
    const { insured, ...policies } = insurance(registration);
    const checks = {
      ...CHECKS_PASS,
      insuranceValid: insured,
      motValid: !nonCompliant.has(registration),
    };
    return {
      registration,
      compliant: Object.values(checks).every(Boolean),
      checks,
      ...(options.complianceWithoutPolicies ? {} : policies),
      vehicle: VEHICLE,
    };
  };

  function complianceAnswer(registration: string): Response {
    if (notFound.has(registration))
      return problemResponse(404, "VEHICLE_NOT_FOUND");
    // A single compliance record has no policy: only the bulk item's extension does.
    const {
      error: _error,
      policy: _policy,
      lastPolicy: _lastPolicy,
      ...item
    } = complianceItem(registration);
    const record: ComplianceRecord = {
      ...item,
      lastChecked: new Date(now()).toISOString(),
    };
    return Response.json(record);
  }

  /** The service's three routes; anything else is a mistake in the test. */
  async function handle(request: Request, path: string): Promise<Response> {
    if (request.method === "POST" && path === paths.bulkInsurance()) {
      const registrations = await registrationsOf(request);
      return answer("bulk-insurance", registrations, () =>
        Response.json(bulkBody(registrations.map(insuranceItem))),
      );
    }
    if (request.method === "POST" && path === paths.bulkCompliance()) {
      const registrations = await registrationsOf(request);
      return answer("bulk-compliance", registrations, () =>
        Response.json(bulkComplianceBody(registrations.map(complianceItem))),
      );
    }
    const compliance = COMPLIANCE_PATH.exec(path);
    if (request.method === "GET" && compliance?.[1] !== undefined) {
      const registration = decodeURIComponent(compliance[1]);
      return answer("compliance", [registration], () =>
        complianceAnswer(registration),
      );
    }
    throw new Error(`The fake upstream has no ${request.method} ${path}`);
  }

  const fakeFetch: typeof fetch = (input, init) => {
    const signal = init?.signal ?? undefined;
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    // As a real fetch: an abort rejects the caller at once, while the service, which got the
    // request already, still counts it.
    const request = new Request(input, init);
    const answered = handle(request, new URL(request.url).pathname);
    return abortable(answered.then(asFetch), signal);
  };

  const upstream: FakeUpstream = {
    calls: [],
    maxInFlight: 0,
    throttled: 0,
    requestsFor: (registration, endpoint) =>
      endpoint
        ? (counts.get(`${endpoint} ${registration}`) ?? 0)
        : (["bulk-insurance", "bulk-compliance", "compliance"] as const).reduce(
            (sum, name) => sum + (counts.get(`${name} ${registration}`) ?? 0),
            0,
          ),
    handle,
    fetch: fakeFetch,
    client: createHttpFleetClient({
      baseUrl: "http://upstream.test",
      fetch: fakeFetch,
    }),
  };
  return upstream;
}

async function registrationsOf(request: Request): Promise<string[]> {
  const body = (await request.json()) as { registrations: string[] };
  return body.registrations;
}

function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined) {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener("abort", onAbort, { once: true });
    work
      .then(resolve, reject)
      .finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** `Response.error()` is a network failure: fetch rejects with a TypeError, as undici does. */
function asFetch(response: Response): Response {
  if (response.type === "error") throw new TypeError("fetch failed");
  return response;
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits `ms` real milliseconds, or for ever: a script's answer that never comes. */
export function delay(ms: number | "infinite"): Promise<void> {
  return ms === "infinite" ? new Promise(() => undefined) : pause(ms);
}
