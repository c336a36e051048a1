// A stand-in for DVSA's MOT History API and its Microsoft Entra token endpoint, on 127.0.0.1, for
// the adapter's tests and the e2e suite (the real ones cannot be reached from here). It follows
// the published documents: client-credentials tokens with a lifetime, Bearer + X-API-Key on every
// look-up, DVSA's error codes (MOTH-...) and Entra's (AADSTS...). Switches make it fail as the
// real ones can. Run alone: scripts/node24 node service/src/sources/testing/mot-stand-in.ts --port N
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import {
  type IncomingMessage,
  type ServerResponse,
  createServer,
} from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import type { MotHistoryVehicle } from "../dvsa-mot-answer.ts";

export const STAND_IN_SCOPE = "https://tapi.dvsa.gov.uk/.default";
const TENANT = "00000000-0000-4000-8000-000000000000";

export interface MotStandInOptions {
  port?: number;
  clientId?: string;
  clientSecret?: string;
  apiKey?: string;
  /** Seconds a token lasts (Entra's `expires_in`); DVSA's last 60 minutes. */
  tokenLifetimeSeconds?: number;
  /** The stand-in's clock, in milliseconds, for token expiry. */
  now?: () => number;
  /** Vehicles by registration (no spaces, capitals). */
  vehicles?: Record<string, MotHistoryVehicle>;
}

/** Makes every look-up fail this way until cleared (set to undefined). */
export type MotFailure =
  | {
      status: 429;
      retryAfter?: string;
      errorCode?: "MOTH-RL-01" | "MOTH-RL-02";
    }
  | { status: 500 | 502 | 503 | 504; retryAfter?: string }
  | { status: "malformed"; body: string };

export interface MotStandInRequest {
  method: string;
  path: string;
  status: number;
}

export interface MotStandIn {
  baseUrl: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  apiKey: string;
  scope: string;
  vehicles: Map<string, MotHistoryVehicle>;
  /** Every request answered, in order (no headers or bodies: they hold secrets). */
  requests: MotStandInRequest[];
  tokensIssued(): number;
  tokenLifetimeSeconds: number;
  /** Status for an expired token: DVSA documents MOTH-FB-02 without saying which; both are tried. */
  expiredTokenStatus: 401 | 403;
  failure: MotFailure | undefined;
  delayMs: number;
  /** The secret expires (Entra's AADSTS7000222), as a two-year-old one does. */
  expireSecret(): void;
  /** DVSA no longer knows the API key (MOTH-FB-03), as after 90 days unused. */
  revokeApiKey(): void;
  /** Every token issued so far expires now, whatever the client's clock says. */
  expireTokens(): void;
  close(): Promise<void>;
}

export async function startMotStandIn(
  options: MotStandInOptions = {},
): Promise<MotStandIn> {
  const now = options.now ?? Date.now;
  const tokens = new Map<string, number>();
  let issued = 0;
  let secretExpired = false;
  let keyRevoked = false;

  const server = createServer((request, response) => {
    void route(request, response).catch(() =>
      send(response, 500, { errorCode: "MOTH-UN-01" }),
    );
  });

  async function route(request: IncomingMessage, response: ServerResponse) {
    const path = new URL(request.url ?? "/", "http://stand-in").pathname;
    const log = (status: number) =>
      stand.requests.push({ method: request.method ?? "", path, status });
    if (request.method === "POST" && path === `/${TENANT}/oauth2/v2.0/token`) {
      const [status, body] = token(new URLSearchParams(await read(request)));
      log(status);
      return send(response, status, body);
    }
    const match = /^\/v1\/trade\/vehicles\/registration\/([^/]+)$/.exec(path);
    if (request.method !== "GET" || !match) {
      log(404);
      return send(
        response,
        404,
        dvsaError("MOTH-NF-02", "The URL requested has not been found"),
      );
    }
    if (stand.delayMs > 0)
      await new Promise((resolve) => setTimeout(resolve, stand.delayMs));
    const [status, body, headers] = lookUp(
      request,
      decodeURIComponent(match[1] ?? ""),
    );
    log(status);
    if (typeof body === "string") {
      response
        .writeHead(status, { "content-type": "application/json" })
        .end(body);
      return;
    }
    send(response, status, body, headers);
  }

  function token(form: URLSearchParams): [number, object] {
    const entra = (
      status: number,
      error: string,
      code: number,
    ): [number, object] => [
      status,
      {
        error,
        error_description: `AADSTS${code}: refused by the stand-in.`,
        error_codes: [code],
      },
    ];
    if (form.get("grant_type") !== "client_credentials")
      return entra(400, "unsupported_grant_type", 70003);
    if (form.get("client_id") !== stand.clientId)
      return entra(400, "unauthorized_client", 700016);
    if (form.get("client_secret") !== stand.clientSecret)
      return entra(401, "invalid_client", 7000215);
    if (secretExpired) return entra(401, "invalid_client", 7000222);
    if (form.get("scope") !== stand.scope)
      return entra(400, "invalid_scope", 70011);
    const value = `stand-in-token-${randomUUID()}`;
    tokens.set(value, now() + stand.tokenLifetimeSeconds * 1000);
    issued += 1;
    const lifetime = stand.tokenLifetimeSeconds;
    return [
      200,
      {
        token_type: "Bearer",
        expires_in: lifetime,
        ext_expires_in: lifetime,
        access_token: value,
      },
    ];
  }

  function lookUp(
    request: IncomingMessage,
    registration: string,
  ): [number, object | string, Record<string, string>?] {
    if (keyRevoked || request.headers["x-api-key"] !== stand.apiKey)
      return [
        403,
        dvsaError(
          "MOTH-FB-03",
          "The API key sent with the request is not recognised",
        ),
      ];
    const bearer = /^Bearer (.+)$/.exec(
      request.headers.authorization ?? "",
    )?.[1];
    if (!bearer)
      return [
        403,
        dvsaError("MOTH-FB-04", "The access token is missing from the request"),
      ];
    const expiresAt = tokens.get(bearer);
    if (expiresAt === undefined)
      return [401, dvsaError("MOTH-UA-01", "Your authorisation failed")];
    if (now() >= expiresAt)
      return [
        stand.expiredTokenStatus,
        dvsaError(
          "MOTH-FB-02",
          "The access token sent with the request has expired",
        ),
      ];
    const failure = stand.failure;
    if (failure?.status === "malformed") return [200, failure.body];
    if (failure) {
      const code =
        failure.status === 429
          ? (failure.errorCode ?? "MOTH-RL-02")
          : "MOTH-UN-01";
      const headers = failure.retryAfter
        ? { "retry-after": failure.retryAfter }
        : undefined;
      return [
        failure.status,
        dvsaError(code, "Failing as the stand-in was told to"),
        headers,
      ];
    }
    const vehicle = stand.vehicles.get(registration.toUpperCase());
    if (!vehicle)
      return [
        404,
        dvsaError("MOTH-NF-01", "The vehicle requested has not been found"),
      ];
    return [200, vehicle];
  }

  server.listen(options.port ?? 0, "127.0.0.1");
  await new Promise((resolve, reject) =>
    server.once("listening", resolve).once("error", reject),
  );
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  const stand: MotStandIn = {
    baseUrl: base,
    tokenUrl: `${base}/${TENANT}/oauth2/v2.0/token`,
    clientId: options.clientId ?? "stand-in-client",
    clientSecret: options.clientSecret ?? "stand-in-secret",
    apiKey: options.apiKey ?? "stand-in-api-key",
    scope: STAND_IN_SCOPE,
    vehicles: new Map(Object.entries(options.vehicles ?? {})),
    requests: [],
    tokensIssued: () => issued,
    tokenLifetimeSeconds: options.tokenLifetimeSeconds ?? 3600,
    expiredTokenStatus: 401,
    failure: undefined,
    delayMs: 0,
    expireSecret: () => void (secretExpired = true),
    revokeApiKey: () => void (keyRevoked = true),
    expireTokens: () => tokens.forEach((_, value) => tokens.set(value, now())),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return stand;
}

function dvsaError(errorCode: string, errorMessage: string) {
  return { errorCode, errorMessage, requestId: randomUUID() };
}

function send(
  response: ServerResponse,
  status: number,
  body: object,
  headers: Record<string, string> = {},
) {
  response.writeHead(status, {
    "content-type": "application/json",
    ...headers,
  });
  response.end(JSON.stringify(body));
}

async function read(request: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of request) text += String(chunk);
  return text;
}

// As a process, for the e2e suite: prints one JSON line with the addresses and credentials.
if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      port: { type: "string", default: "0" },
      "client-id": { type: "string" },
      "client-secret": { type: "string" },
      "api-key": { type: "string" },
      "token-lifetime": { type: "string" },
      vehicles: { type: "string" },
    },
  });
  const stand = await startMotStandIn({
    port: Number(values.port),
    clientId: values["client-id"],
    clientSecret: values["client-secret"],
    apiKey: values["api-key"],
    tokenLifetimeSeconds: values["token-lifetime"]
      ? Number(values["token-lifetime"])
      : undefined,
    vehicles: values.vehicles
      ? (JSON.parse(readFileSync(values.vehicles, "utf8")) as Record<
          string,
          MotHistoryVehicle
        >)
      : undefined,
  });
  const { baseUrl, tokenUrl, scope } = stand;
  console.log(JSON.stringify({ baseUrl, tokenUrl, scope }));
  process.once("SIGTERM", () => void stand.close().then(() => process.exit(0)));
}
