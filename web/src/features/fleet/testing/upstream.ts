// Test support: @vics/fleet's scripted fake of the vehicle service, served at the proxy's
// routes through msw, so the web's tests reach it through the real API client. See
// fleet/src/testing/fake-upstream.ts for what it answers, counts and limits.
import { http } from "msw";
import { PROXY_PREFIX, ROUTE_PATTERNS } from "@vics/shared";
import {
  fakeUpstream as fleetFakeUpstream,
  type FakeUpstream,
  type UpstreamOptions,
} from "@vics/fleet/testing/fake-upstream";
import { server } from "../../../testing/server.ts";
import { policyFixture } from "../../../testing/fixtures.ts";

export type {
  Endpoint,
  FakeUpstream,
  Script,
  UpstreamCall,
  UpstreamOptions,
} from "@vics/fleet/testing/fake-upstream";

export function fakeUpstream(options: UpstreamOptions = {}): FakeUpstream {
  // The web's policy, dated by the UK's today as the pages count days.
  const upstream = fleetFakeUpstream({
    policy: () => policyFixture(),
    ...options,
  });
  const answer = ({ request }: { request: Request }) =>
    upstream.handle(
      request,
      new URL(request.url).pathname.slice(PROXY_PREFIX.length),
    );
  server.use(
    http.post(PROXY_PREFIX + ROUTE_PATTERNS.bulkInsurance, answer),
    http.post(PROXY_PREFIX + ROUTE_PATTERNS.bulkCompliance, answer),
    http.get(PROXY_PREFIX + ROUTE_PATTERNS.compliance, answer),
  );
  return upstream;
}
