// msw handlers for the endpoints as the proxy serves them, each with a log of the requests made.
import { http, HttpResponse } from "msw";
import { PROXY_PREFIX, ROUTE_PATTERNS } from "@vics/shared";
import { recordFakeCheck } from "./recent-checks-handlers.ts";
import { server } from "./server.ts";

export type Reply = (
  registration: string,
  attempt: number,
) => Response | Promise<Response>;

/**
 * Answers every request to `pattern` with `reply`; returns the registrations requested, in
 * order. An answered check is recorded for the proxy's recent checks, as the proxy does.
 */
function serveEndpoint(pattern: string, kind: "insurance" | "compliance") {
  return (reply: Reply): string[] => {
    const requested: string[] = [];
    server.use(
      http.get(PROXY_PREFIX + pattern, async ({ params }) => {
        const registration = String(params.registration);
        requested.push(registration);
        const response = await reply(registration, requested.length);
        await recordFakeCheck(kind, registration, response.clone());
        return response;
      }),
    );
    return requested;
  };
}

export const serveInsurance = serveEndpoint(
  ROUTE_PATTERNS.insurance,
  "insurance",
);
export const serveCompliance = serveEndpoint(
  ROUTE_PATTERNS.compliance,
  "compliance",
);

export function json(
  body: unknown,
  status = 200,
  headers: Record<string, string> = {},
): Response {
  return HttpResponse.json(body as Record<string, unknown>, {
    status,
    headers: {
      ...headers,
      ...(status >= 400 ? { "Content-Type": "application/problem+json" } : {}),
    },
  });
}
