// The `dvsa-mot-history` source: DVSA's MOT History API, one vehicle a request
// (GET {base}/v1/trade/vehicles/registration/{registration}, with a bearer token from
// dvsa-token.ts and the X-API-Key header). Its answers become MOT and vehicle facts; its refusals
// become SourceErrors in an operator's words, from DVSA's documented error codes (MOTH-...).
import {
  MotHistoryError,
  MotHistoryVehicle,
  toSourceAnswer,
} from "./dvsa-mot-answer.ts";
import type { TokenCache } from "./dvsa-token.ts";
import { type Refusal, failure, malformed } from "./dvsa-mot-refusals.ts";
import {
  type LiveSource,
  retryAfterMs,
  type SourceAnswer,
  SourceError,
} from "./source.ts";

const DEFAULT_TIMEOUT_MS = 10_000;

export interface MotHistorySourceOptions {
  /** https://history.mot.api.gov.uk, without a trailing slash (source-settings strips it). */
  baseUrl: string;
  apiKey: string;
  tokens: TokenCache;
  fetch?: typeof globalThis.fetch;
  timeoutMs?: number;
  now?: () => Date;
}

interface Reply extends Refusal {
  text: string;
}

export function createMotHistorySource(
  options: MotHistorySourceOptions,
): LiveSource {
  const fetch = options.fetch ?? globalThis.fetch;
  const now = options.now ?? (() => new Date());
  const { baseUrl } = options;

  async function get(
    registration: string,
    token: string,
    signal?: AbortSignal,
  ): Promise<Reply> {
    const url = `${baseUrl}/v1/trade/vehicles/registration/${encodeURIComponent(registration)}`;
    const timeout = AbortSignal.timeout(
      options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    );
    try {
      const response = await fetch(url, {
        headers: {
          accept: "application/json",
          authorization: `Bearer ${token}`,
          "x-api-key": options.apiKey,
        },
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      const text = await response.text();
      return {
        status: response.status,
        retryAfterMs: retryAfterMs(response.headers, now()),
        text,
        errorCode: response.ok ? undefined : errorCode(text),
      };
    } catch (cause) {
      if (signal?.aborted) throw signal.reason;
      const words = timeout.aborted
        ? "did not answer in time"
        : "could not be reached";
      throw new SourceError(
        "dvsa-mot-history",
        "unavailable",
        `DVSA's MOT history service ${words}; look-ups resume when it answers.`,
        { cause },
      );
    }
  }

  return {
    name: "dvsa-mot-history",
    baseUrl,
    async lookUp(registration, signal) {
      signal?.throwIfAborted();
      const token = await options.tokens.token(signal);
      let reply = await get(registration, token, signal);
      if (tokenRefused(reply)) {
        // Expired or revoked on DVSA's side before our clock said so: one new token, one retry.
        options.tokens.invalidate(token);
        reply = await get(
          registration,
          await options.tokens.token(signal),
          signal,
        );
      }
      return answer(registration, reply, now());
    },
  };
}

/** A refusal a new token may cure; a key DVSA does not know (MOTH-FB-03) it cannot. */
function tokenRefused(reply: Reply): boolean {
  return (
    reply.status === 401 ||
    (reply.status === 403 && reply.errorCode === "MOTH-FB-02")
  );
}

function answer(
  registration: string,
  reply: Reply,
  answeredAt: Date,
): SourceAnswer {
  const { status } = reply;
  if (status === 200) return parsed(registration, reply.text, answeredAt);
  if (status === 404 && reply.errorCode !== "MOTH-NF-02")
    return { found: false, registration, answeredAt };
  throw failure(reply);
}

function parsed(
  registration: string,
  text: string,
  answeredAt: Date,
): SourceAnswer {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw malformed("it is not JSON");
  }
  const vehicle = MotHistoryVehicle.safeParse(body);
  if (!vehicle.success) {
    const issue = vehicle.error.issues[0];
    const where = issue?.path.length ? issue.path.join(".") : "the vehicle";
    throw malformed(`${where}: ${issue?.message ?? "unreadable"}`);
  }
  return toSourceAnswer(registration, vehicle.data, answeredAt);
}

function errorCode(text: string): string | undefined {
  try {
    const body = MotHistoryError.safeParse(JSON.parse(text));
    return body.success ? body.data.errorCode : undefined;
  } catch {
    return undefined;
  }
}
