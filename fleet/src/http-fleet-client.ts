// A FleetClient over plain fetch, for Node (the proxy's re-checks, the bench) or any runtime:
// the v1 bulk routes at `baseUrl`, with the caller's headers (an API key, or a session cookie
// through the proxy). Every failure is an ApiError, as from the web app's API client, so the
// engine judges it the same way (engine/request-failure.ts).
import {
  ApiError,
  BulkComplianceResultSchema,
  BulkResultSchema,
  codeForStatus,
  ComplianceRecordSchema,
  paths,
  parseRateLimitHeaders,
  parseRetryAfter,
  ProblemSchema,
  readAnswerJson,
  REQUEST_ID_HEADER,
  type RateLimitState,
} from "@vics/shared";
import type { z } from "zod";
import type { FleetAnswer, FleetClient } from "./fleet-client.ts";

export interface HttpFleetClientOptions {
  /** Where the v1 paths start: the service's origin, or the proxy's origin + "/api". */
  baseUrl: string;
  /** Sent with every request: `X-API-Key`, or a session cookie and the client header. */
  headers?: Readonly<Record<string, string>>;
  fetch?: typeof fetch;
}

export function createHttpFleetClient(
  options: HttpFleetClientOptions,
): FleetClient {
  const base = options.baseUrl.replace(/\/+$/, "");
  const send = options.fetch ?? fetch;

  async function request<T>(
    path: string,
    init: { method: "GET" | "POST"; body?: string; idempotencyKey?: string },
    schema: z.ZodType<T>,
    signal: AbortSignal,
  ): Promise<FleetAnswer<T>> {
    const headers: Record<string, string> = {
      Accept: "application/json",
      ...options.headers,
    };
    if (init.body !== undefined) headers["Content-Type"] = "application/json";
    if (init.idempotencyKey) headers["Idempotency-Key"] = init.idempotencyKey;
    let response: Response;
    try {
      response = await send(base + path, {
        method: init.method,
        body: init.body,
        headers,
        signal,
      });
    } catch (cause) {
      if (signal.aborted) throw cause;
      throw new ApiError({
        status: 0,
        code: "NETWORK",
        detail: "The vehicle service could not be reached.",
        cause,
      });
    }
    const rateLimit = parseRateLimitHeaders(response.headers);
    const requestId = response.headers.get(REQUEST_ID_HEADER) ?? undefined;
    const body = await readAnswerJson(response, {
      requestId,
      rateLimit,
      signal,
    });
    if (!response.ok) throw refusal(response, body, rateLimit, requestId);
    const parsed = schema.safeParse(body);
    if (!parsed.success)
      throw new ApiError({
        status: response.status,
        code: "INVALID_RESPONSE",
        detail: "The vehicle service sent an answer that does not match v1.",
        requestId,
        rateLimit,
        cause: parsed.error,
      });
    return { data: parsed.data, rateLimit };
  }

  const bulkBody = (registrations: readonly string[]) =>
    JSON.stringify({ registrations });

  return {
    bulkInsurance: (registrations, signal, idempotencyKey) =>
      request(
        paths.bulkInsurance(),
        { method: "POST", body: bulkBody(registrations), idempotencyKey },
        BulkResultSchema,
        signal,
      ),
    bulkCompliance: (registrations, signal, idempotencyKey) =>
      request(
        paths.bulkCompliance(),
        { method: "POST", body: bulkBody(registrations), idempotencyKey },
        BulkComplianceResultSchema,
        signal,
      ),
    compliance: (registration, signal) =>
      request(
        paths.compliance(registration),
        { method: "GET" },
        ComplianceRecordSchema,
        signal,
      ),
  };
}

function refusal(
  response: Response,
  body: unknown,
  rateLimit: RateLimitState | undefined,
  requestId: string | undefined,
): ApiError {
  const problem = ProblemSchema.safeParse(body);
  return new ApiError({
    status: response.status,
    code: problem.success ? problem.data.code : codeForStatus(response.status),
    detail: problem.success
      ? problem.data.detail
      : `The vehicle service answered with an error (${response.status}).`,
    requestId: problem.success ? problem.data.requestId : requestId,
    retryAfterSeconds:
      parseRetryAfter(response.headers) ??
      (response.status === 429 ? rateLimit?.resetSeconds : undefined),
    rateLimit,
  });
}
