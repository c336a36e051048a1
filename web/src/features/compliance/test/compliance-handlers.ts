// msw handlers for the compliance endpoint as the proxy serves it, plus a log of the requests made.
import { http } from "msw";
import { PROXY_PREFIX, ROUTE_PATTERNS } from "@vics/shared";
import { server } from "../../../test/server.ts";

export const COMPLIANCE_URL = PROXY_PREFIX + ROUTE_PATTERNS.compliance;

type Reply = (
  registration: string,
  attempt: number,
) => Response | Promise<Response>;

/** Answers every compliance request with `reply`; returns the registrations requested, in order. */
export function serveCompliance(reply: Reply): string[] {
  const requested: string[] = [];
  server.use(
    http.get(COMPLIANCE_URL, ({ params }) => {
      const registration = String(params.registration);
      requested.push(registration);
      return reply(registration, requested.length);
    }),
  );
  return requested;
}
