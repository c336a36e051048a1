/**
 * What the service, and the proxy in front of it, must answer to a request, worked out from
 * the request alone with the shared parsers; and the checks every answer gets. The property
 * tests of both apps hold their answers to these, so a route that drifts from the contract
 * (or from the shared parser) fails with the input that showed it.
 */
import { expect } from "vitest";
import { BulkComplianceResultSchema } from "../bulk-compliance.ts";
import { BULK_ERRORS, BULK_MAX_BODY_BYTES, BulkResultSchema } from "../bulk.ts";
import {
  BULK_REQUEST_DETAILS,
  isJsonContentType,
  readBulkRequest,
} from "../bulk-request.ts";
import { ComplianceRecordSchema } from "../compliance-record.ts";
import { InsuranceRecordSchema } from "../insurance-record.ts";
import {
  PROBLEM_CONTENT_TYPE,
  type ProblemCode,
  ProblemSchema,
} from "../problem.ts";
import { REQUEST_ID_HEADER, RETRY_AFTER_HEADER } from "../rate-limit.ts";
import { isAcceptableRequestId } from "../request-id.ts";
import { parseRegistration } from "../registration.ts";

/** The statuses the contract documents for a client's mistakes and for success. */
export const DOCUMENTED_STATUSES = [200, 400, 401, 404, 405, 413, 429];
/** And the proxy's own refusals at its edges: another site's request, another host. */
export const PROXY_EDGE_STATUSES = [403, 421];

const CODES_BY_STATUS: Record<number, string[]> = {
  400: ["INVALID_REGISTRATION", "MALFORMED_REQUEST"],
  401: ["UNAUTHORIZED"],
  403: ["FORBIDDEN"],
  404: ["NOT_FOUND", "VEHICLE_NOT_FOUND"],
  405: ["METHOD_NOT_ALLOWED"],
  413: ["PAYLOAD_TOO_LARGE"],
  421: ["MISDIRECTED_REQUEST"],
  429: ["RATE_LIMITED"],
};

export interface Expectation {
  /** What the request is, for the report: "insurance", "bulk insurance", "unknown route". */
  route: string;
  statuses: number[];
  /** When given, a problem's code must be one of these. */
  codes?: ProblemCode[];
  detail?: string;
  /** Checks a 200's JSON. */
  body?: (json: unknown) => void;
}

/** decodeURIComponent, or undefined for a malformed sequence (the router then keeps a "%"). */
function decodedSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function registrationCheck(
  route: "insurance" | "compliance",
  segment: string,
  authorised: boolean,
): Expectation {
  if (!authorised) return { route, statuses: [401], codes: ["UNAUTHORIZED"] };
  const parsed = parseRegistration(decodedSegment(segment) ?? "%");
  if (!parsed.ok)
    return {
      route,
      statuses: [400],
      codes: ["INVALID_REGISTRATION"],
      detail: parsed.message,
    };
  const schema =
    route === "insurance" ? InsuranceRecordSchema : ComplianceRecordSchema;
  return {
    route,
    statuses: [200, 404],
    codes: ["VEHICLE_NOT_FOUND"],
    body: (json) =>
      // The registration answered is the normalised one.
      expect(schema.parse(json).registration).toBe(parsed.registration),
  };
}

/** A bulk check's body, read as the contract says: type, then size, then JSON, then shape. */
export function bulkExpectation(
  check: "insurance" | "compliance",
  contentType: string | null,
  body: Uint8Array,
): Expectation {
  const route = `bulk ${check}`;
  if (!isJsonContentType(contentType))
    return {
      route,
      statuses: [400],
      codes: ["MALFORMED_REQUEST"],
      detail: BULK_REQUEST_DETAILS.contentType,
    };
  if (body.byteLength > BULK_MAX_BODY_BYTES)
    return { route, statuses: [413], codes: ["PAYLOAD_TOO_LARGE"] };
  const reading = readBulkRequest(new TextDecoder().decode(body));
  if (!reading.ok)
    return {
      route,
      statuses: [400],
      codes: ["MALFORMED_REQUEST"],
      detail: reading.detail,
    };
  const submitted = reading.request.registrations;
  const schema =
    check === "insurance" ? BulkResultSchema : BulkComplianceResultSchema;
  return {
    route,
    statuses: [200],
    body: (json) => {
      const result = schema.parse(json);
      // One item per registration submitted, in order, counted.
      expect(result.processed).toBe(submitted.length);
      expect(result.results).toHaveLength(submitted.length);
      result.results.forEach((item, index) => {
        const text = submitted[index] ?? "";
        const parsed = parseRegistration(text);
        if (parsed.ok) {
          expect(item.registration).toBe(parsed.registration);
          if (item.error !== undefined)
            expect(item.error).toBe(BULK_ERRORS.notFound);
        } else {
          expect(item).toMatchObject({
            registration: text,
            error: BULK_ERRORS.invalid,
          });
        }
      });
    },
  };
}

export interface RequestShape {
  method: string;
  /** The URL as sent; the WHATWG parser normalises it before any router sees it. */
  url: string;
  /** A key the service accepts: sent by the client to the service, or added by the proxy. */
  authorised: boolean;
  contentType?: string | null;
  body?: Uint8Array;
}

/**
 * Routing as the contract has it, under `prefix` ("" for the service, "/api" for the proxy):
 * the five operations, /health on the service, and a 404 for anything else.
 */
export function expectationFor(
  request: RequestShape,
  prefix: "" | "/api",
): Expectation {
  const path = new URL(request.url).pathname;
  const segments = path.slice(prefix.length).split("/");
  const inPrefix = path.startsWith(`${prefix}/`);
  const method = request.method.toUpperCase();
  const reads = method === "GET" || method === "HEAD";
  const notAllowed = (route: string): Expectation => ({
    route,
    statuses: [405],
    codes: ["METHOD_NOT_ALLOWED"],
  });
  const [empty, version, resource, name, tail, ...rest] = segments;
  if (inPrefix && empty === "" && version === "v1") {
    if (
      resource === "vehicle" &&
      name &&
      tail === "insurance" &&
      rest.length === 0
    )
      return reads
        ? registrationCheck("insurance", name, request.authorised)
        : notAllowed("insurance");
    if (resource === "compliance" && name && tail === undefined)
      return reads
        ? registrationCheck("compliance", name, request.authorised)
        : notAllowed("compliance");
    if (
      resource === "vehicle" &&
      (name === "bulk-insurance" || name === "bulk-compliance") &&
      tail === undefined
    ) {
      const check = name === "bulk-insurance" ? "insurance" : "compliance";
      if (method !== "POST") return notAllowed(`bulk ${check}`);
      if (!request.authorised)
        return {
          route: `bulk ${check}`,
          statuses: [401],
          codes: ["UNAUTHORIZED"],
        };
      return bulkExpectation(
        check,
        request.contentType ?? null,
        request.body ?? new Uint8Array(),
      );
    }
    if (resource === "openapi.json" && name === undefined)
      return reads
        ? {
            route: "openapi",
            statuses: [200],
            body: (json) =>
              expect(json).toMatchObject({
                openapi: expect.stringMatching(/^3\.1\./),
                paths: expect.any(Object),
              }),
          }
        : notAllowed("openapi");
  }
  // The service's liveness probe, outside /v1 and the key (the proxy has none of its own).
  if (prefix === "" && path === "/health")
    return reads
      ? {
          route: "health",
          statuses: [200],
          body: (json) => expect(json).toEqual({ status: "ok" }),
        }
      : notAllowed("health");
  return { route: "unknown route", statuses: [404], codes: ["NOT_FOUND"] };
}

/**
 * Checks an answer against what was expected and against what every answer must carry:
 * an X-Request-Id (the client's own when it was acceptable; with `ownId`, as the proxy
 * answers, never the client's), a documented status, and for
 * an error an RFC 9457 problem document with the same status, a code and the request id.
 * Returns the outcome for the report, e.g. "insurance: 400 INVALID_REGISTRATION".
 */
export async function checkAnswer(
  response: Response,
  expected: Expectation,
  sent: { method: string; requestId?: string; ownId?: boolean },
  documented: readonly number[] = DOCUMENTED_STATUSES,
): Promise<string> {
  const requestId = response.headers.get(REQUEST_ID_HEADER);
  expect(isAcceptableRequestId(requestId ?? undefined)).toBe(true);
  if (isAcceptableRequestId(sent.requestId)) {
    if (sent.ownId) expect(requestId).not.toBe(sent.requestId);
    else expect(requestId).toBe(sent.requestId);
  }
  expect(documented).toContain(response.status);
  expect(expected.statuses).toContain(response.status);
  const head = sent.method.toUpperCase() === "HEAD";
  const text = await response.text();
  if (head) {
    expect(text).toBe("");
    return `${expected.route}: ${response.status} (HEAD)`;
  }
  if (response.ok) {
    expected.body?.(JSON.parse(text));
    return `${expected.route}: ${response.status}`;
  }
  expect(response.headers.get("Content-Type")).toBe(PROBLEM_CONTENT_TYPE);
  const problem = ProblemSchema.parse(JSON.parse(text));
  expect(problem.status).toBe(response.status);
  expect(problem.requestId).toBe(requestId);
  expect(CODES_BY_STATUS[response.status]).toContain(problem.code);
  if (expected.codes) expect(expected.codes).toContain(problem.code);
  if (expected.detail !== undefined)
    expect(problem.detail).toBe(expected.detail);
  if (response.status === 405)
    expect(response.headers.get("Allow")).toBeTruthy();
  if (response.status === 429)
    expect(response.headers.get(RETRY_AFTER_HEADER)).toMatch(/^\d+$/);
  return `${expected.route}: ${response.status} ${problem.code}`;
}
