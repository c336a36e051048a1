// What the MOT stand-in answers, apart from HTTP: Microsoft Entra's client-credentials token
// endpoint (errors as AADSTS codes) and DVSA's registration look-up (errors as MOTH- codes,
// `{ errorCode, errorMessage, requestId }`), from the stand-in's state (mot-stand-in.ts).
import { randomUUID } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import type { MotHistoryVehicle } from "../../sources/dvsa-mot-answer.ts";

/** Makes every look-up fail this way until cleared (set to undefined). */
export type MotFailure =
  | {
      status: 429;
      retryAfter?: string;
      errorCode?: "MOTH-RL-01" | "MOTH-RL-02";
    }
  | { status: 500 | 502 | 503 | 504; retryAfter?: string }
  | { status: "malformed"; body: string };

/** The stand-in's state; tests change it between look-ups. */
export interface MotStandInState {
  clientId: string;
  clientSecret: string;
  apiKey: string;
  scope: string;
  /** Vehicles by registration (no spaces, capitals). */
  vehicles: Map<string, MotHistoryVehicle>;
  /** Seconds a token lasts (Entra's `expires_in`); DVSA's last 60 minutes. */
  tokenLifetimeSeconds: number;
  /** Status for an expired token: DVSA documents MOTH-FB-02 without saying which; both are tried. */
  expiredTokenStatus: 401 | 403;
  /** The client secret has expired (AADSTS7000222), as a two-year-old one has. */
  secretExpired: boolean;
  /** DVSA no longer knows the API key (MOTH-FB-03), as after 90 days unused. */
  keyRevoked: boolean;
  failure: MotFailure | undefined;
  /** Tokens issued so far. */
  tokensIssued: number;
  /** Each token issued, with the instant (stand-in clock, ms) it expires. */
  tokens: Map<string, number>;
  now: () => number;
}

export interface StandInAnswer {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

const json = (
  status: number,
  body: object,
  headers?: Record<string, string>,
): StandInAnswer => ({ status, body: JSON.stringify(body), headers });

export function dvsaError(
  status: number,
  errorCode: string,
  errorMessage: string,
  headers?: Record<string, string>,
): StandInAnswer {
  return json(
    status,
    { errorCode, errorMessage, requestId: randomUUID() },
    headers,
  );
}

export function tokenAnswer(
  state: MotStandInState,
  form: URLSearchParams,
): StandInAnswer {
  const entra = (status: number, error: string, code: number) =>
    json(status, {
      error,
      error_description: `AADSTS${code}: refused by the stand-in.`,
      error_codes: [code],
    });
  if (form.get("grant_type") !== "client_credentials")
    return entra(400, "unsupported_grant_type", 70003);
  if (form.get("client_id") !== state.clientId)
    return entra(400, "unauthorized_client", 700016);
  if (form.get("client_secret") !== state.clientSecret)
    return entra(401, "invalid_client", 7000215);
  if (state.secretExpired) return entra(401, "invalid_client", 7000222);
  if (form.get("scope") !== state.scope)
    return entra(400, "invalid_scope", 70011);
  const token = `stand-in-token-${randomUUID()}`;
  const lifetime = state.tokenLifetimeSeconds;
  state.tokens.set(token, state.now() + lifetime * 1000);
  state.tokensIssued += 1;
  return json(200, {
    token_type: "Bearer",
    expires_in: lifetime,
    ext_expires_in: lifetime,
    access_token: token,
  });
}

export function lookUpAnswer(
  state: MotStandInState,
  headers: IncomingHttpHeaders,
  registration: string,
): StandInAnswer {
  if (state.keyRevoked || headers["x-api-key"] !== state.apiKey)
    return dvsaError(
      403,
      "MOTH-FB-03",
      "The API key sent with the request is not recognised",
    );
  const bearer = /^Bearer (.+)$/.exec(headers.authorization ?? "")?.[1];
  if (!bearer)
    return dvsaError(
      403,
      "MOTH-FB-04",
      "The access token is missing from the request",
    );
  const expiresAt = state.tokens.get(bearer);
  if (expiresAt === undefined)
    return dvsaError(401, "MOTH-UA-01", "Your authorisation failed");
  if (state.now() >= expiresAt)
    return dvsaError(
      state.expiredTokenStatus,
      "MOTH-FB-02",
      "The access token sent with the request has expired",
    );
  const failure = state.failure;
  if (failure?.status === "malformed")
    return { status: 200, body: failure.body };
  if (failure) {
    const code =
      failure.status === 429
        ? (failure.errorCode ?? "MOTH-RL-02")
        : "MOTH-UN-01";
    const retryAfter = failure.retryAfter
      ? { "retry-after": failure.retryAfter }
      : undefined;
    return dvsaError(
      failure.status,
      code,
      "Failing as the stand-in was told to",
      retryAfter,
    );
  }
  const vehicle = state.vehicles.get(registration.toUpperCase());
  if (!vehicle)
    return dvsaError(
      404,
      "MOTH-NF-01",
      "The vehicle requested has not been found",
    );
  return json(200, vehicle);
}
