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
import {
  type LiveSource,
  type SourceAnswer,
  SourceError,
  retryAfterMs,
} from "./source.ts";

const DEFAULT_TIMEOUT_MS = 10_000;

export interface MotHistorySourceOptions {
  /** https://history.mot.api.gov.uk, no trailing slash needed. */
  baseUrl: string;
  apiKey: string;
  tokens: TokenCache;
  fetch?: typeof globalThis.fetch;
  timeoutMs?: number;
  now?: () => Date;
}

interface Reply {
  status: number;
  retryAfter: string | null;
  text: string;
  errorCode: string | undefined;
}

export function createMotHistorySource(
  options: MotHistorySourceOptions,
): LiveSource {
  const fetch = options.fetch ?? globalThis.fetch;
  const now = options.now ?? (() => new Date());
  const base = options.baseUrl.replace(/\/+$/, "");

  async function get(
    registration: string,
    token: string,
    signal?: AbortSignal,
  ): Promise<Reply> {
    const url = `${base}/v1/trade/vehicles/registration/${encodeURIComponent(registration)}`;
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
        retryAfter: response.headers.get("retry-after"),
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
    kinds: ["mot", "vehicle"],
    baseUrl: base,
    async lookUp(asked, signal) {
      signal?.throwIfAborted();
      const registration = asked.replace(/\s+/g, "").toUpperCase();
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
      return answer(asked, reply, now());
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
  throw failure(registration, reply, answeredAt);
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
    throw malformed(registration, "it is not JSON");
  }
  const vehicle = MotHistoryVehicle.safeParse(body);
  if (!vehicle.success) {
    const issue = vehicle.error.issues[0];
    const where = issue?.path.length ? issue.path.join(".") : "the vehicle";
    throw malformed(
      registration,
      `${where}: ${issue?.message ?? "unreadable"}`,
    );
  }
  return toSourceAnswer(registration, vehicle.data, answeredAt);
}

function malformed(registration: string, why: string): SourceError {
  return new SourceError(
    "dvsa-mot-history",
    "malformed",
    `DVSA's answer for ${registration} is not the shape its documentation gives (${why}); VICS kept the facts it had. If this persists, DVSA may have changed the API.`,
    { status: 200 },
  );
}

function failure(registration: string, reply: Reply, now: Date): SourceError {
  const { status, errorCode: code } = reply;
  const options = { status, retryAfterMs: retryAfterMs(reply.retryAfter, now) };
  const error = (kind: SourceError["kind"], words: string) =>
    new SourceError("dvsa-mot-history", kind, words, options);
  if (status === 401 || status === 403)
    return error("credentials", credentialWords(status, code));
  if (status === 429)
    return error(
      "quota",
      code === "MOTH-RL-01"
        ? "DVSA's daily allowance of MOT history requests is spent; look-ups resume tomorrow. For more than about 150,000 vehicles a day DVSA recommends its bulk files."
        : "DVSA is refusing MOT history requests sent too quickly; look-ups resume after the pause it asked for.",
    );
  if (status === 400)
    return error(
      "refused",
      `DVSA would not look up ${registration}: it says the registration is not valid (${code ?? "status 400"}).`,
    );
  if (status === 404)
    return error(
      "unavailable",
      "DVSA says the address VICS calls does not exist (MOTH-NF-02): check the MOT history base URL.",
    );
  if (status === 503)
    return error(
      "maintenance",
      "DVSA's MOT history service is down for maintenance; look-ups resume when it is back.",
    );
  return error(
    "unavailable",
    `DVSA's MOT history service failed (status ${status}${code ? `, ${code}` : ""}); look-ups resume when it recovers.`,
  );
}

function credentialWords(status: number, code: string | undefined): string {
  if (code === "MOTH-FB-03" || (status === 403 && code === undefined))
    return "DVSA did not accept the MOT history API key: it may have been revoked (DVSA revokes a key unused for 90 days) or mistyped. Ask DVSA for a new key and put it in the API key file.";
  if (code === "MOTH-FB-01")
    return "DVSA says this account may not use the MOT history look-up (MOTH-FB-01): ask DVSA to grant it.";
  return `DVSA refused the access token even after a new one was issued (${code}): check that the client id, client secret and API key are all from the same DVSA registration.`;
}

function errorCode(text: string): string | undefined {
  try {
    const body = MotHistoryError.safeParse(JSON.parse(text));
    return body.success ? body.data.errorCode : undefined;
  } catch {
    return undefined;
  }
}

export type { MotHistoryVehicle } from "./dvsa-mot-answer.ts";
