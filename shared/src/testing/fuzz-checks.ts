/**
 * The properties of the four checks that the service's and the proxy's fuzz tests both run,
 * each under its own path prefix ("" on the service, "/api" through the proxy): the inputs,
 * how a case shows in a report, and the outcomes a run must reach at least once (so a
 * generator that stopped reaching an answer fails, rather than a property that passes empty).
 */
import fc from "fast-check";
import { expect, it } from "vitest";
import { FUZZ_TEST_TIMEOUT_MS, type FuzzOptions, fuzz } from "./fuzz.ts";
import {
  type BulkBody,
  bulkBody,
  describeBulkBody,
  httpMethod,
  pathSegment,
  requestIdHeader,
  tenMegabyteBody,
} from "./fuzz-inputs.ts";

export type Check = "insurance" | "compliance";
const CHECKS = ["insurance", "compliance"] as const;

/** A request as the properties build it, before each app adds its key or client header. */
export interface SentCheck {
  method: string;
  path: string;
  requestId?: string;
  contentType?: string | null;
  body?: Uint8Array<ArrayBuffer>;
}

export const singleCheckPath = (
  prefix: string,
  check: Check,
  segment: string,
): string =>
  check === "insurance"
    ? `${prefix}/v1/vehicle/${segment}/insurance`
    : `${prefix}/v1/compliance/${segment}`;

/** A path of `checks` (default both) on a hostile segment, under `prefix`. */
export const singleCheckPaths = (
  prefix: string,
  checks: readonly Check[] = CHECKS,
): fc.Arbitrary<string> =>
  fc
    .tuple(fc.constantFrom(...checks), pathSegment())
    .map(([check, segment]) => singleCheckPath(prefix, check, segment));

/** "GET /v1/compliance/x (X-Request-Id "…")": a request as a report shows it. */
export const describeSent = (sent: SentCheck): string =>
  `${sent.method} ${sent.path}${sent.requestId === undefined ? "" : ` (X-Request-Id ${JSON.stringify(sent.requestId)})`}`;

/** Either single check, on any path segment, with a GET or any other method, any request id. */
export const singleCheck = (prefix: string): fc.Arbitrary<SentCheck> =>
  fc
    .record({
      check: fc.constantFrom(...CHECKS),
      segment: pathSegment(),
      method: httpMethod("GET"),
      requestId: requestIdHeader(),
    })
    .map(({ check, segment, method, requestId }) => ({
      method,
      path: singleCheckPath(prefix, check, segment),
      requestId,
    }));

/** A record, an unknown plate and a refused one: every answer a single check has. */
export const SINGLE_CHECK_OUTCOMES = [
  "insurance: 200",
  "compliance: 200",
  "insurance: 404 VEHICLE_NOT_FOUND",
  "insurance: 400 INVALID_REGISTRATION",
  "compliance: 400 INVALID_REGISTRATION",
];

export interface BulkCheck {
  check: Check;
  body: BulkBody;
  requestId?: string;
}

export const bulkCheck = (): fc.Arbitrary<BulkCheck> =>
  fc.record({
    check: fc.constantFrom(...CHECKS),
    body: bulkBody(),
    requestId: requestIdHeader(),
  });

/** The POST a bulk case sends, under `prefix`. */
export const bulkCheckSent = (prefix: string, bulk: BulkCheck): SentCheck => ({
  method: "POST",
  path: `${prefix}/v1/vehicle/bulk-${bulk.check}`,
  requestId: bulk.requestId,
  contentType: bulk.body.contentType,
  body: bulk.body.body,
});

/** The fuzz options of a bulk property: a 10 MB body for each check on every run, first. */
export const bulkCheckOptions = (prefix: string): FuzzOptions<BulkCheck> => ({
  // Refused after the first 64 KiB, whichever app reads it.
  examples: CHECKS.map((check): BulkCheck => ({
    check,
    body: tenMegabyteBody(),
    requestId: undefined,
  })),
  describe: (bulk: BulkCheck) =>
    `POST ${bulkCheckSent(prefix, bulk).path}: ${describeBulkBody(bulk.body)}`,
});

export const BULK_CHECK_OUTCOMES = [
  "bulk insurance: 200",
  "bulk compliance: 200",
  "bulk insurance: 400 MALFORMED_REQUEST",
  "bulk insurance: 413 PAYLOAD_TOO_LARGE",
];

/** Paths of 1 to 4 hostile segments under one of `prefixes` (each ending in "/"). */
export const pathsUnder = (prefixes: readonly string[]): fc.Arbitrary<string> =>
  fc
    .tuple(
      fc.constantFrom(...prefixes),
      fc.array(pathSegment(), { minLength: 1, maxLength: 4 }),
    )
    .map(([prefix, segments]) => prefix + segments.join("/"));

/** Any of `paths`, with mostly a GET or a POST, any bulk body and any request id. */
export const anyRequest = (
  paths: fc.Arbitrary<string>,
): fc.Arbitrary<SentCheck> =>
  fc
    .record({
      path: paths,
      method: fc.oneof(httpMethod("GET"), httpMethod("POST")),
      body: bulkBody(),
      requestId: requestIdHeader(),
    })
    .map(({ path, method, body, requestId }) => ({
      method,
      path,
      requestId,
      contentType: body.contentType,
      body: body.body,
    }));

/**
 * Plain requests, as `examples` of a property run on every run: each outcome a property
 * requires is then met whatever the seed (a rare one, like a GET of the OpenAPI document
 * among any method on any path, was once missed by 1,000 random cases).
 */
export const plainRequests = (
  requests: ReadonlyArray<readonly [method: string, path: string]>,
): SentCheck[] => requests.map(([method, path]) => ({ method, path }));

/** That a run met each of `expected` at least once (among others). */
export function expectOutcomes(
  report: { outcomes: Record<string, number> },
  expected: readonly string[],
): void {
  expect(Object.keys(report.outcomes)).toEqual(
    expect.arrayContaining([...expected]),
  );
}

export interface PropertyTest<T> {
  /** The property's name in its report, e.g. "proxy: bulk checks". */
  name: string;
  input: fc.Arbitrary<T>;
  /** Sends one case, checks its answer, and names its outcome (checkAnswer). */
  answer: (input: T) => string | Promise<string>;
  options?: FuzzOptions<T>;
  /** What the run must meet at least once. */
  outcomes: readonly string[];
  /** After the run: the app still answers a real check, and logged no error. */
  after: () => Promise<void>;
}

/** One property of an app's routes, as a vitest test with the fuzz run's time limit. */
export function propertyTest<T>(title: string, test: PropertyTest<T>): void {
  it(
    title,
    async () => {
      const report = await fuzz(
        test.name,
        test.input,
        test.answer,
        test.options,
      );
      expectOutcomes(report, test.outcomes);
      await test.after();
    },
    FUZZ_TEST_TIMEOUT_MS,
  );
}
