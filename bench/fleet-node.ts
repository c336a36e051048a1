// A fleet run in Node: the web app's own run engine (@vics/fleet) through a real proxy, with the
// engine's HTTP client sending what a signed-in browser sends: the session cookie and the client
// header the proxy requires.
import { createFleetRun, createHttpFleetClient } from "@vics/fleet";
import { CLIENT_HEADER, PROXY_PREFIX } from "@vics/shared";
import { ScenarioFailure } from "./answers.ts";

export interface FleetRunFigures {
  seconds: number;
  perSecond: number;
  /** Results by insurance status, e.g. { insured: 93000, "not-insured": 7000 }. */
  outcomes: Record<string, number>;
}

export async function fleetRunInNode(
  proxyUrl: string,
  /** A signed-in fleet user's Cookie header: every /api route needs a session. */
  cookie: string,
  registrations: readonly string[],
  /** What sends the requests: a test passes its own to watch them. */
  send: typeof fetch = fetch,
): Promise<FleetRunFigures> {
  const outcomes: Record<string, number> = {};
  let results = 0;
  const client = createHttpFleetClient({
    // Resolved, not joined: "http://host/" + "/api" would send "//api/...", which the proxy
    // refuses a body on (it is not the bulk route's path).
    baseUrl: new URL(PROXY_PREFIX, proxyUrl).href,
    headers: { [CLIENT_HEADER]: "bench", Cookie: cookie },
    fetch: send,
  });
  const started = performance.now();
  // The page's defaults: insurance only, the engine's own chunking and concurrency.
  const run = createFleetRun({
    registrations,
    checkCompliance: false,
    client,
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
}
