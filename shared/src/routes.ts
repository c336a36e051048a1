/** The v1 paths, as the service serves them. The proxy serves the same under /api. */
export const API_VERSION_PREFIX = "/v1";
export const PROXY_PREFIX = "/api";

/**
 * Sent by the web app's one API client on every /api request, and required there by the
 * proxy: a page on another site cannot send it without a CORS preflight, which the proxy
 * never approves (docs/decisions/018-proxy-edges.md). Its value says which client sent it.
 */
export const CLIENT_HEADER = "X-VICS-Client";

/** Liveness for supervisors: outside /v1, no key, not rate limited. */
export const HEALTH_PATH = "/health";

/**
 * Readiness for load balancers: 200 when the database and the rate limiter answer, else 503
 * saying which does not. Outside /v1, no key, not rate limited.
 */
export const READY_PATH = "/ready";

export const ROUTE_PATTERNS = {
  insurance: "/v1/vehicle/:registration/insurance",
  bulkInsurance: "/v1/vehicle/bulk-insurance",
  bulkCompliance: "/v1/vehicle/bulk-compliance",
  compliance: "/v1/compliance/:registration",
  openapi: "/v1/openapi.json",
} as const;

export const paths = {
  insurance: (registration: string) =>
    `/v1/vehicle/${encodeURIComponent(registration)}/insurance`,
  bulkInsurance: () => "/v1/vehicle/bulk-insurance",
  bulkCompliance: () => "/v1/vehicle/bulk-compliance",
  compliance: (registration: string) =>
    `/v1/compliance/${encodeURIComponent(registration)}`,
  openapi: () => "/v1/openapi.json",
} as const;
