// The watched vehicles' register facts, refreshed ahead of the daily sweep (issue 35, point 3;
// decision 059): every watched registration, once, sent to the service's refresh route in
// slices of a bulk check's size, with the instant of the coming sweep. The service queues what
// will be stale by then (not only what is stale now: a fact fetched yesterday just after the
// refresh would be fresh at refresh time and stale by the sweep) behind its own checks, paced
// within each register's day quota, and answers at once; what the quota leaves unrefreshed its
// sources page says. The sweep then reads facts the registers have just given.
import { randomUUID } from "node:crypto";
import { BULK_MAX_REGISTRATIONS, ProblemSchema } from "@vics/shared";
import {
  REGISTERS_REFRESH_PATH,
  RegisterRefreshQueuedSchema,
  type RegisterRefreshQueued,
} from "@vics/shared/registers-admin";
import { upstreamRequestHeaders } from "../../gateway/forward/header-allowlists.ts";
import type { ProxyStore } from "../store/proxy-store.ts";
import {
  callUpstream,
  type UpstreamSend,
} from "../../gateway/upstream/upstream-call.ts";

/**
 * One slice sent to the service's refresh route, to have its facts fresh until `until` (an
 * instant); rejects, in words, when it is not queued.
 */
export type RefreshCall = (
  registrations: readonly string[],
  until: number,
) => Promise<RegisterRefreshQueued>;

/**
 * The refresh route through the proxy's way to the service (its pool, or a test's fetch), with
 * the re-checks' key: the route needs a key on the internal plan, which theirs is. Each slice
 * carries a request id of its own, named by its failure, so the service's lines for it can be
 * found.
 */
export function registerRefreshCall(options: {
  send: UpstreamSend;
  upstreamUrl: string;
  apiKey: string;
  timeoutMs: number;
}): RefreshCall {
  // UPSTREAM_URL may end in a slash (the forwarder trims its own copy the same way).
  const url = options.upstreamUrl.replace(/\/+$/, "") + REGISTERS_REFRESH_PATH;
  return async (registrations, until) => {
    const requestId = randomUUID();
    const failed = (words: string) =>
      new Error(`${words} (request id ${requestId})`);
    const outcome = await callUpstream(
      options.send,
      `${url}?${new URLSearchParams({ until: new Date(until).toISOString() })}`,
      {
        method: "POST",
        headers: upstreamRequestHeaders(options.apiKey, requestId, true),
        body: JSON.stringify({ registrations }),
      },
      options.timeoutMs,
    );
    if (outcome.kind === "timeout")
      throw failed(
        `the vehicle service did not answer within ${options.timeoutMs} ms`,
      );
    if (outcome.kind === "unreachable")
      throw failed(
        `the vehicle service could not be reached (${outcome.reason})`,
      );
    const body = parseJson(outcome.body);
    if (outcome.status !== 202) {
      const problem = ProblemSchema.safeParse(body);
      throw failed(
        `the vehicle service answered ${outcome.status}` +
          (problem.success ? `: ${problem.data.detail}` : ""),
      );
    }
    const answer = RegisterRefreshQueuedSchema.safeParse(body);
    if (!answer.success)
      throw failed(
        "the vehicle service's answer to the refresh does not match the contract",
      );
    return answer.data;
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export interface RefreshReport {
  /** False when the service said no register is on: nothing more was sent. */
  on: boolean;
  /** Vehicles sent. */
  sent: number;
  /** Requests the service queued, one per vehicle and register. */
  queued: number;
  /** Vehicles whose facts were fresh already. */
  fresh: number;
  /** Watched entries the service did not take for registrations. */
  invalid: number;
}

export async function refreshWatchedVehicles(
  deps: {
    store: Pick<ProxyStore, "watchedRegistrations">;
    refresh: RefreshCall;
    /** The coming sweep: every fact that will be stale by then is queued. */
    until: number;
  },
  signal?: AbortSignal,
): Promise<RefreshReport> {
  // Each once however many fleets hold it (the fleet store's contract).
  const watched = await deps.store.watchedRegistrations();
  const report: RefreshReport = {
    on: true,
    sent: 0,
    queued: 0,
    fresh: 0,
    invalid: 0,
  };
  for (let at = 0; at < watched.length; at += BULK_MAX_REGISTRATIONS) {
    // Stopped midway: what was sent stays queued at the service; the engine sends it all again.
    if (signal?.aborted)
      throw new Error(
        `the proxy stopped after ${report.sent.toLocaleString("en-GB")} of ${watched.length.toLocaleString("en-GB")} vehicles were sent`,
      );
    const slice = watched.slice(at, at + BULK_MAX_REGISTRATIONS);
    const answer = await deps.refresh(slice, deps.until);
    report.sent += slice.length;
    if (!answer.on) return { ...report, on: false };
    report.queued += answer.queued;
    report.fresh += answer.fresh;
    report.invalid += answer.invalid.length;
  }
  return report;
}
