// Helpers for the service's own integration tests.
import {
  API_KEY_HEADER,
  type Problem,
  PROBLEM_CONTENT_TYPE,
  ProblemSchema,
  RATE_LIMIT_HEADERS,
  REQUEST_ID_HEADER,
} from "@vics/shared";
import { expect } from "vitest";
import type { TestService } from "./index.ts";

/** A fixed clock: the reference data's dates are relative to it. */
export const FIXED_NOW = new Date("2026-03-10T12:00:00.000Z");
export const fixedNow = () => FIXED_NOW;

export interface CallOptions {
  key?: string;
  method?: string;
  headers?: Record<string, string>;
  /** A POST body: bytes, or a stream (sent without Content-Length). */
  body?: Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array>;
}

export function call(
  service: Pick<TestService, "app">,
  path: string,
  options: CallOptions = {},
) {
  const headers = new Headers(options.headers);
  if (options.key !== undefined) headers.set(API_KEY_HEADER, options.key);
  return service.app.fetch(
    new Request(`http://service.test${path}`, {
      method: options.method ?? (options.body === undefined ? "GET" : "POST"),
      headers,
      body: options.body,
      duplex: "half",
    }),
  );
}

/**
 * A bulk check's POST with a JSON body (or any text, to test what is refused), sent as
 * bytes so that no Content-Type is added but `contentType` (default JSON; null for none).
 */
export function postBulk(
  service: Pick<TestService, "app">,
  path: string,
  body: unknown,
  options: CallOptions & { contentType?: string | null } = {},
) {
  const { contentType = "application/json", ...rest } = options;
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return call(service, path, {
    ...rest,
    body: new TextEncoder().encode(text),
    headers: {
      ...(contentType === null ? {} : { "Content-Type": contentType }),
      ...options.headers,
    },
  });
}

/** Asserts the headers every metered response carries. */
export function expectMeteredHeaders(response: Response, limit: number): void {
  expect(response.headers.get(REQUEST_ID_HEADER)).toMatch(
    /^[A-Za-z0-9._-]{1,64}$/,
  );
  expect(response.headers.get(RATE_LIMIT_HEADERS.limit)).toBe(String(limit));
  const remaining = Number(response.headers.get(RATE_LIMIT_HEADERS.remaining));
  const reset = Number(response.headers.get(RATE_LIMIT_HEADERS.reset));
  expect(remaining).toBeGreaterThanOrEqual(0);
  expect(remaining).toBeLessThanOrEqual(limit);
  expect(reset).toBeGreaterThanOrEqual(0);
  expect(reset).toBeLessThanOrEqual(60);
}

/** Asserts a problem response and returns its parsed body. */
export async function expectProblem(
  response: Response,
  status: number,
  code: Problem["code"],
): Promise<Problem> {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe(PROBLEM_CONTENT_TYPE);
  const problem = ProblemSchema.parse(await response.json());
  expect(problem).toMatchObject({ status, code });
  expect(problem.requestId).toBe(response.headers.get(REQUEST_ID_HEADER));
  return problem;
}
