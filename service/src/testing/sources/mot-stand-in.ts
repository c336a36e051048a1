// A stand-in for DVSA's MOT History API and its Microsoft Entra token endpoint, on 127.0.0.1, for
// the adapter's tests and the e2e suite (the real ones cannot be reached from here). It follows
// the published documents (mot-stand-in-answers.ts); its state's switches make it fail as the
// real ones can. A process (the e2e suite's) changes that state through /_stand-in/ routes.
// Alone: scripts/node24 node service/src/testing/sources/mot-stand-in.ts --port N [--vehicles F]
import { readFileSync } from "node:fs";
import {
  type IncomingMessage,
  type ServerResponse,
  createServer,
} from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import type { MotHistoryVehicle } from "../../sources/dvsa-mot-answer.ts";
import {
  type MotFailure,
  type MotStandInState,
  type StandInAnswer,
  dvsaError,
  lookUpAnswer,
  tokenAnswer,
} from "./mot-stand-in-answers.ts";

export type { MotFailure } from "./mot-stand-in-answers.ts";

export const STAND_IN_SCOPE = "https://tapi.dvsa.gov.uk/.default";
const TENANT = "00000000-0000-4000-8000-000000000000";

export interface MotStandInOptions {
  port?: number;
  clientId?: string;
  clientSecret?: string;
  apiKey?: string;
  tokenLifetimeSeconds?: number;
  /** The stand-in's clock, in milliseconds, for token expiry. */
  now?: () => number;
  vehicles?: Record<string, MotHistoryVehicle>;
}

export interface MotStandInRequest {
  method: string;
  path: string;
  status: number;
}

export interface MotStandIn extends MotStandInState {
  baseUrl: string;
  tokenUrl: string;
  /** Every request answered, in order (no headers or bodies: they hold credentials). */
  requests: MotStandInRequest[];
  /** Every look-up waits this long before it answers, for time-outs. */
  delayMs: number;
  /** Every token issued so far expires now, whatever the client's clock says. */
  expireTokens(): void;
  close(): Promise<void>;
}

export async function startMotStandIn(
  options: MotStandInOptions = {},
): Promise<MotStandIn> {
  const server = createServer((request, response) => {
    void route(request, response).catch(() =>
      send(response, dvsaError(500, "MOTH-UN-01", "Unknown error encountered")),
    );
  });

  async function route(request: IncomingMessage, response: ServerResponse) {
    const path = new URL(request.url ?? "/", "http://stand-in").pathname;
    const registration = /^\/v1\/trade\/vehicles\/registration\/([^/]+)$/.exec(
      path,
    )?.[1];
    let answer: StandInAnswer;
    if (request.method === "POST" && path === `/${TENANT}/oauth2/v2.0/token`)
      answer = tokenAnswer(stand, new URLSearchParams(await read(request)));
    else if (request.method === "GET" && registration !== undefined) {
      if (stand.delayMs > 0)
        await new Promise((resolve) => setTimeout(resolve, stand.delayMs));
      answer = lookUpAnswer(
        stand,
        request.headers,
        decodeURIComponent(registration),
      );
    } else if (path.startsWith("/_stand-in/"))
      answer = control(path, await read(request));
    else
      answer = dvsaError(
        404,
        "MOTH-NF-02",
        "The URL requested has not been found",
      );
    stand.requests.push({
      method: request.method ?? "",
      path,
      status: answer.status,
    });
    send(response, answer);
  }

  function control(path: string, body: string): StandInAnswer {
    const done = { status: 204, body: "" };
    const vehicle = /^\/_stand-in\/vehicles\/([^/]+)$/.exec(path)?.[1];
    if (vehicle !== undefined)
      stand.vehicles.set(
        decodeURIComponent(vehicle),
        JSON.parse(body) as MotHistoryVehicle,
      );
    else if (path === "/_stand-in/failure")
      stand.failure =
        (JSON.parse(body || "null") as MotFailure | null) ?? undefined;
    else if (path === "/_stand-in/revoke-api-key") stand.keyRevoked = true;
    else if (path === "/_stand-in/expire-secret") stand.secretExpired = true;
    else if (path === "/_stand-in/expire-tokens") stand.expireTokens();
    else return { status: 404, body: "" };
    return done;
  }

  server.listen(options.port ?? 0, "127.0.0.1");
  await new Promise((resolve, reject) =>
    server.once("listening", resolve).once("error", reject),
  );
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const stand: MotStandIn = {
    baseUrl: base,
    tokenUrl: `${base}/${TENANT}/oauth2/v2.0/token`,
    clientId: options.clientId ?? "stand-in-client",
    clientSecret: options.clientSecret ?? "stand-in-secret",
    apiKey: options.apiKey ?? "stand-in-api-key",
    scope: STAND_IN_SCOPE,
    vehicles: new Map(Object.entries(options.vehicles ?? {})),
    tokenLifetimeSeconds: options.tokenLifetimeSeconds ?? 3600,
    expiredTokenStatus: 401,
    secretExpired: false,
    keyRevoked: false,
    failure: undefined,
    tokensIssued: 0,
    tokens: new Map(),
    now: options.now ?? Date.now,
    requests: [],
    delayMs: 0,
    expireTokens() {
      for (const token of stand.tokens.keys())
        stand.tokens.set(token, stand.now());
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return stand;
}

function send(response: ServerResponse, answer: StandInAnswer) {
  if (response.headersSent || response.destroyed) return;
  const type = answer.body ? { "content-type": "application/json" } : {};
  response
    .writeHead(answer.status, { ...type, ...answer.headers })
    .end(answer.body);
}

async function read(request: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of request) text += String(chunk);
  return text;
}

// As a process, for the e2e suite: prints one JSON line with its addresses.
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
  const lifetime = values["token-lifetime"];
  const stand = await startMotStandIn({
    port: Number(values.port),
    clientId: values["client-id"],
    clientSecret: values["client-secret"],
    apiKey: values["api-key"],
    tokenLifetimeSeconds: lifetime === undefined ? undefined : Number(lifetime),
    vehicles:
      values.vehicles === undefined
        ? undefined
        : (JSON.parse(readFileSync(values.vehicles, "utf8")) as Record<
            string,
            MotHistoryVehicle
          >),
  });
  const { baseUrl, tokenUrl, scope } = stand;
  console.log(JSON.stringify({ baseUrl, tokenUrl, scope }));
  process.once("SIGTERM", () => void stand.close().then(() => process.exit(0)));
}
