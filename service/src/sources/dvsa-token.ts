// The MOT History API's access token: OAuth 2.0 client credentials against Microsoft Entra ID
// (docs/sources.md). DVSA asks clients to cache the token, which lasts 60 minutes, rather than
// ask for one per request; every look-up of a run shares one, and one request for a new one.
// Neither the client secret nor a token ever goes into a message, a log line or an error.
import { z } from "zod";
import { retryAfterMs, SourceError } from "./source.ts";

/** Renewed this long before Entra's `expires_in` runs out, so no request carries a dying token. */
export const TOKEN_MARGIN_MS = 60_000;
const DEFAULT_TIMEOUT_MS = 10_000;

export interface TokenCacheOptions {
  /** The access token URL DVSA sends: https://login.microsoftonline.com/<tenant>/oauth2/v2.0/token */
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /** https://tapi.dvsa.gov.uk/.default */
  scope: string;
  fetch?: typeof globalThis.fetch;
  now?: () => Date;
  timeoutMs?: number;
}

export interface TokenCache {
  /** A token valid for at least the margin; concurrent callers share one token request. */
  token(signal?: AbortSignal): Promise<string>;
  /**
   * Forgets the cached token (the API refused it). Given the refused token, forgets only that
   * one, so callers that all saw the same refusal ask for one new token between them.
   */
  invalidate(refused?: string): void;
}

const TokenAnswer = z.object({
  access_token: z.string().min(1),
  expires_in: z.coerce.number().nonnegative(),
});

const EntraError = z.object({
  error: z.string().optional(),
  error_codes: z.array(z.number()).optional(),
});

export function createTokenCache(options: TokenCacheOptions): TokenCache {
  const fetch = options.fetch ?? globalThis.fetch;
  const now = options.now ?? (() => new Date());
  let cached: { value: string; renewAt: number } | undefined;
  let pending: Promise<string> | undefined;

  async function requestToken(): Promise<string> {
    const response = await post().catch((cause: unknown) => {
      throw new SourceError(
        "dvsa-mot-history",
        "unavailable",
        "DVSA's sign-in service (Microsoft Entra ID) could not be reached for an access token; look-ups resume when it answers.",
        { cause },
      );
    });
    const body: unknown = await response.json().catch(() => undefined);
    if (!response.ok) throw refusal(response, body, now());
    const answer = TokenAnswer.safeParse(body);
    if (!answer.success)
      throw new SourceError(
        "dvsa-mot-history",
        "malformed",
        "DVSA's sign-in service answered without an access token and its lifetime, as its documentation promises.",
      );
    const lifetimeMs = answer.data.expires_in * 1000;
    cached = {
      value: answer.data.access_token,
      renewAt: now().getTime() + lifetimeMs - TOKEN_MARGIN_MS,
    };
    return cached.value;
  }

  function post(): Promise<Response> {
    return fetch(options.tokenUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: options.clientId,
        client_secret: options.clientSecret,
        scope: options.scope,
      }),
      signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    });
  }

  return {
    token(signal) {
      signal?.throwIfAborted();
      if (cached && now().getTime() < cached.renewAt)
        return Promise.resolve(cached.value);
      // The shared request runs without any one caller's signal: a caller that gives up must
      // not cancel the token the others wait for.
      pending ??= requestToken().finally(() => {
        pending = undefined;
      });
      return untilAborted(pending, signal);
    },
    invalidate(refused) {
      if (refused === undefined || cached?.value === refused)
        cached = undefined;
    },
  };
}

/** The token endpoint said no: words for the operator, from Entra's error code where it gave one. */
function refusal(response: Response, body: unknown, now: Date): SourceError {
  const status = response.status;
  const wait = retryAfterMs(response.headers, now);
  if (status === 429)
    return new SourceError(
      "dvsa-mot-history",
      "quota",
      "DVSA's sign-in service is refusing token requests for now (too many); look-ups resume after a pause.",
      {
        status,
        ...(wait !== undefined && { retryAfterMs: wait }),
      },
    );
  if (status >= 500)
    return new SourceError(
      "dvsa-mot-history",
      "unavailable",
      `DVSA's sign-in service failed to issue an access token (status ${status}); look-ups resume when it recovers.`,
      { status },
    );
  const entra = EntraError.safeParse(body);
  const error = entra.success ? entra.data.error : undefined;
  const code = entra.success ? entra.data.error_codes?.[0] : undefined;
  return new SourceError(
    "dvsa-mot-history",
    "credentials",
    credentialWords(error, code),
    {
      status,
    },
  );
}

// Entra's AADSTS codes: https://learn.microsoft.com/entra/identity-platform/reference-error-codes
function credentialWords(
  error: string | undefined,
  code: number | undefined,
): string {
  const tag = code === undefined ? "" : ` (AADSTS${code})`;
  if (code === 7000222)
    return `DVSA's sign-in refused the client secret because it has expired${tag}: client secrets last two years. Request a new one from DVSA (the API's /credentials endpoint or its support form) and put it in the client secret file.`;
  if (error === "invalid_client")
    return `DVSA refused the client secret${tag}: it may have expired (they last two years) or be mistyped. Make a new one with DVSA and put it in the client secret file.`;
  if (error === "invalid_scope")
    return `DVSA's sign-in refused the scope${tag}: it should be the scope URL DVSA sent, https://tapi.dvsa.gov.uk/.default.`;
  if (error === "unauthorized_client" || code === 700016)
    return `DVSA's sign-in does not know the client id${tag}: check it against the one in DVSA's email.`;
  return `DVSA's sign-in refused the token request${tag}: check the token URL (it holds DVSA's tenant id), the client id and the client secret against DVSA's email.`;
}

/** The shared promise, or the caller's abort reason as soon as the caller gives up. */
function untilAborted<T>(
  promise: Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener("abort", abort, { once: true });
    promise
      .then(resolve, reject)
      .finally(() => signal.removeEventListener("abort", abort));
  });
}
