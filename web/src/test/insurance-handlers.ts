// msw handlers for the insurance endpoint as the proxy serves it, plus a log of the requests made.
import { http, HttpResponse } from "msw";
import { PROXY_PREFIX, ROUTE_PATTERNS } from "@vics/shared";
import { server } from "./server.ts";

export const INSURANCE_URL = PROXY_PREFIX + ROUTE_PATTERNS.insurance;

type Reply = (registration: string, attempt: number) => Response;

/** Answers every insurance request with `reply`; returns the registrations requested, in order. */
export function serveInsurance(reply: Reply): string[] {
  const requested: string[] = [];
  server.use(
    http.get(INSURANCE_URL, ({ params }) => {
      const registration = String(params.registration);
      requested.push(registration);
      return reply(registration, requested.length);
    }),
  );
  return requested;
}

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
