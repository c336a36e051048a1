// The live sources the environment turns on, paced and wrapped in one refresher; none when no
// source is set (the default), so the embedded `npm start` never asks a register.
import type { Logger } from "@vics/server-kit/logger";
import type { LimitStore } from "@vics/server-kit/rate-limiter";
import type { FetchedFactStore } from "../store/fetched-facts.ts";
import { createVesSource } from "./dvla-ves.ts";
import { createMotHistorySource } from "./dvsa-mot-history.ts";
import { createTokenCache } from "./dvsa-token.ts";
import { createPacer } from "./pacer.ts";
import type { PacedSource } from "./paced-source.ts";
import { createRefresher, type Refresher } from "./refresher.ts";
import { DEFAULT_PACE, type SourceSettings } from "./source-settings.ts";

export function openSources(
  settings: SourceSettings,
  deps: {
    store: FetchedFactStore;
    limits: LimitStore;
    /** The clock of the refresher, the adapters and DVSA's token cache. */
    now: () => Date;
    logger: Logger;
  },
): Refresher | undefined {
  const sources: PacedSource[] = [];
  const { ves, mot } = settings;
  const { now } = deps;
  if (mot) {
    const tokens = createTokenCache({
      tokenUrl: mot.tokenUrl,
      clientId: mot.clientId,
      clientSecret: mot.clientSecret,
      scope: mot.scope,
      now,
    });
    const pace = { ...DEFAULT_PACE["dvsa-mot-history"], ...mot.pace };
    sources.push({
      source: createMotHistorySource({
        baseUrl: mot.baseUrl,
        apiKey: mot.apiKey,
        tokens,
        now,
      }),
      pacer: createPacer(deps.limits, "dvsa-mot-history", pace),
      perSecond: pace.perSecond,
      freshForMs: settings.freshForMs,
      kinds: ["mot", "vehicle"],
      ...(mot.secretExpires && { secretExpires: mot.secretExpires }),
    });
  }
  if (ves) {
    const pace = { ...DEFAULT_PACE["dvla-ves"], ...ves.pace };
    sources.unshift({
      source: createVesSource({
        baseUrl: ves.baseUrl,
        apiKey: ves.apiKey,
        now,
      }),
      pacer: createPacer(deps.limits, "dvla-ves", pace),
      perSecond: pace.perSecond,
      freshForMs: settings.freshForMs,
      // DVSA's history is the MOT's source when it is on; DVLA then gives tax and the vehicle.
      kinds: mot ? ["tax", "vehicle"] : ["tax", "mot", "vehicle"],
    });
  }
  if (sources.length === 0) return undefined;
  return createRefresher({
    store: deps.store,
    sources,
    now,
    logger: deps.logger,
  });
}
