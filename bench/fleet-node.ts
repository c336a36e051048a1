// A fleet run in Node: the web app's own run engine and its own API client, through a real
// proxy. The client fetches relative /api URLs, as a page does; Node's fetch needs absolute
// ones, so for the run fetch resolves them against the proxy, adding the bench's client name and
// the session cookie a signed-in browser would send.
import { CLIENT_HEADER } from "@vics/shared";
import { apiFleetClient } from "../web/src/features/fleet/api/fleet-client.ts";
import { createFleetRun } from "../web/src/features/fleet/lib/engine/fleet-run.ts";
import { ScenarioFailure } from "./answers.ts";

export interface FleetRunFigures {
  seconds: number;
  perSecond: number;
  /** Results by insurance status, e.g. { insured: 93000, "not-insured": 7000 }. */
  outcomes: Record<string, number>;
}

function fetchThrough(
  base: string,
  cookie: string,
  real: typeof fetch,
): typeof fetch {
  return (input, init) => {
    const url =
      typeof input === "string" && input.startsWith("/")
        ? new URL(input, base)
        : input;
    const headers = new Headers(init?.headers);
    headers.set(CLIENT_HEADER, "bench");
    headers.set("Cookie", cookie);
    return real(url, { ...init, headers });
  };
}

export async function fleetRunInNode(
  proxyUrl: string,
  /** A signed-in fleet user's Cookie header: every /api route needs a session. */
  cookie: string,
  registrations: readonly string[],
): Promise<FleetRunFigures> {
  const outcomes: Record<string, number> = {};
  let results = 0;
  const realFetch = globalThis.fetch;
  globalThis.fetch = fetchThrough(proxyUrl, cookie, realFetch);
  const started = performance.now();
  try {
    // The page's defaults: insurance only, the engine's own chunking and concurrency.
    const run = createFleetRun({
      registrations,
      checkCompliance: false,
      client: apiFleetClient,
      onResults(batch) {
        results += batch.length;
        for (const { insurance } of batch)
          outcomes[insurance.status] = (outcomes[insurance.status] ?? 0) + 1;
      },
      onProgress: () => undefined,
    });
    const end = await run.start();
    const seconds = (performance.now() - started) / 1000;
    // Every vehicle is in the fleet: anything but an answer means the run met a fault.
    const unanswered =
      results - (outcomes.insured ?? 0) - (outcomes["not-insured"] ?? 0);
    if (
      end.status !== "finished" ||
      results !== registrations.length ||
      unanswered > 0
    )
      throw new ScenarioFailure(
        "fleet run in Node",
        `${end.status} with ${results} of ${registrations.length} results (${JSON.stringify(outcomes)})`,
      );
    return { seconds, perSecond: registrations.length / seconds, outcomes };
  } finally {
    globalThis.fetch = realFetch;
  }
}
