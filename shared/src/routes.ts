/** The v1 paths, as the service serves them. The proxy serves the same under /api. */
export const API_VERSION_PREFIX = "/v1";
export const PROXY_PREFIX = "/api";

/** Liveness for supervisors: outside /v1, no key, not rate limited. */
export const HEALTH_PATH = "/health";

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
