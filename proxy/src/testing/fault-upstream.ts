/**
 * `@vics/proxy/testing/fault-upstream`: a stand-in for the vehicle service that misbehaves on
 * demand, on a real loopback socket, for the proxy's tests and the e2e fault journeys. Every
 * request gets what the current rule says: the contract's answer, or one of FAULTS.
 * Test support, never imported by the app.
 */
import { once } from "node:events";
import { setTimeout as delay } from "node:timers/promises";
import type { AddressInfo, Socket } from "node:net";
import { createAdaptorServer, type HttpBindings } from "@hono/node-server";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import { Hono, type Context } from "hono";
import {
  RATE_LIMIT_HEADERS,
  REQUEST_ID_HEADER,
  ROUTE_PATTERNS,
} from "@vics/shared";
import {
  contractBreakingAnswer,
  goodAnswer,
  problem,
  type Operation,
} from "./fault-answers.ts";

export { fakeOutcome, type FakeOutcome } from "./fault-answers.ts";

export const FAULTS = [
  /** Nothing listens: connections are refused (ECONNREFUSED). */
  "refuse",
  /** The connection is closed before any answer. */
  "hang-up",
  /** Headers and part of the body, then the connection is reset. */
  "reset",
  /** The answer comes after `slowMs`. */
  "slow",
  /** Headers flushed, then nothing more, ever. */
  "stall",
  /** A 500 that is not the service's own: a plain text page, not a problem document. */
  "status-500",
  /** A gateway's 502 page in HTML. */
  "status-502",
  /** A 503 problem document with Retry-After, as a service in maintenance gives. */
  "status-503",
  /** A 200 whose body is an HTML page. */
  "not-json",
  /** A 200 with JSON that breaks the contract (wrong types; bulk counts that do not add up). */
  "breaks-contract",
] as const;

export type Fault = (typeof FAULTS)[number];

/**
 * The contract's own 500 problem document (as the sandbox's ER19ERR gives): not a fault of the
 * wire, so the proxy passes it on (decision 017).
 */
export const CONTRACT_500 = "contract-500";

export type Behaviour = Fault | typeof CONTRACT_500 | "answer";

export interface FaultCall {
  method: string;
  path: string;
  operation: Operation | undefined;
  /** The registrations asked about: the path's one, or the bulk body's. */
  registrations: string[];
  /** 1-based, over the upstream's life. */
  number: number;
  /** What it got. */
  behaviour: Behaviour;
}

/** What to do with a request: one behaviour for all, or one chosen per request. */
export type FaultRule =
  Behaviour | ((call: Omit<FaultCall, "behaviour">) => Behaviour);

export interface FaultUpstream {
  /** http://127.0.0.1:port, the same whatever the rule. */
  readonly url: string;
  readonly calls: readonly FaultCall[];
  /** How long "slow" waits before answering. */
  slowMs: number;
  /** Answers begun and not yet ended or cut off (stalled and slow ones). */
  readonly openAnswers: number;
  /** From now on; "refuse" stops listening, any other rule listens again on the same port. */
  use(rule: FaultRule): Promise<void>;
  close(): Promise<void>;
}

const OPERATIONS: ReadonlyArray<[Operation, string, RegExp]> = [
  ["insurance", "GET", pattern(ROUTE_PATTERNS.insurance)],
  ["compliance", "GET", pattern(ROUTE_PATTERNS.compliance)],
  ["bulk-insurance", "POST", pattern(ROUTE_PATTERNS.bulkInsurance)],
  ["bulk-compliance", "POST", pattern(ROUTE_PATTERNS.bulkCompliance)],
];

function pattern(route: string): RegExp {
  return new RegExp(`^${route.replace(":registration", "([^/]+)")}$`);
}

async function identify(c: Context) {
  for (const [operation, method, route] of OPERATIONS) {
    const match = route.exec(c.req.path);
    if (!match || c.req.method !== method) continue;
    if (method === "GET")
      return { operation, registrations: [decodeURIComponent(match[1] ?? "")] };
    const body = (await c.req.json().catch(() => ({}))) as {
      registrations?: unknown;
    };
    const list = Array.isArray(body.registrations) ? body.registrations : [];
    return { operation, registrations: list.map(String) };
  }
  return { operation: undefined, registrations: [] };
}

export async function startFaultUpstream(
  options: { slowMs?: number } = {},
): Promise<FaultUpstream> {
  let rule: FaultRule = "answer";
  const calls: FaultCall[] = [];
  const open = new Set<HttpBindings["outgoing"]>();
  let served = 0;
  /** Counted open until the answer ends or its connection goes. */
  const track = (outgoing: HttpBindings["outgoing"]) => {
    open.add(outgoing);
    outgoing.once("close", () => open.delete(outgoing));
  };

  const app = new Hono<{ Bindings: HttpBindings }>();
  app.all("*", async (c) => {
    const requestId = c.req.header(REQUEST_ID_HEADER) ?? "fault-upstream";
    const { operation, registrations } = await identify(c);
    const base = { method: c.req.method, path: c.req.path, operation };
    const number = calls.length + 1;
    const chosen = { ...base, registrations, number };
    const behaviour = typeof rule === "function" ? rule(chosen) : rule;
    calls.push({ ...chosen, behaviour });
    served += 1;
    const headers = {
      [REQUEST_ID_HEADER]: requestId,
      [RATE_LIMIT_HEADERS.limit]: "100000",
      [RATE_LIMIT_HEADERS.remaining]: String(Math.max(0, 100_000 - served)),
      [RATE_LIMIT_HEADERS.reset]: "60",
    };
    const { outgoing } = c.env;

    const good = (): Response => {
      if (!operation) return problem(404, "NOT_FOUND", requestId, headers);
      const answer = goodAnswer(operation, registrations);
      if ("problem" in answer)
        return problem(answer.status, answer.problem, requestId, headers);
      return Response.json(answer.json, { headers });
    };

    switch (behaviour) {
      case "answer":
      case "refuse": // a request that got in before the listener closed
        return good();
      case CONTRACT_500:
        return problem(500, "INTERNAL", requestId, headers);
      case "hang-up":
        outgoing.socket?.destroy();
        return RESPONSE_ALREADY_SENT;
      case "reset": {
        const text = await good().text();
        outgoing.writeHead(200, {
          "Content-Type": "application/json",
          "Content-Length": String(text.length + 100),
        });
        outgoing.write(text.slice(0, Math.ceil(text.length / 2)), () =>
          outgoing.socket?.resetAndDestroy(),
        );
        return RESPONSE_ALREADY_SENT;
      }
      case "stall":
        track(outgoing);
        outgoing.writeHead(200, {
          "Content-Type": "application/json",
          ...headers,
        });
        outgoing.flushHeaders();
        return RESPONSE_ALREADY_SENT;
      case "slow": {
        track(outgoing);
        const gone = new AbortController();
        outgoing.once("close", () => gone.abort());
        await delay(upstream.slowMs, undefined, { signal: gone.signal }).catch(
          () => {},
        );
        return good();
      }
      case "status-500":
        return c.text("Internal Server Error", 500);
      case "status-502":
        return c.html(
          "<html><body><h1>502 Bad Gateway</h1></body></html>",
          502,
        );
      case "status-503":
        return problem(503, "INTERNAL", requestId, { "Retry-After": "5" });
      case "not-json":
        return c.html(
          "<!doctype html><title>Maintenance</title><p>Back soon</p>",
        );
      case "breaks-contract":
        return Response.json(
          operation ? contractBreakingAnswer(operation, registrations) : {},
          { headers },
        );
    }
  });

  const server = createAdaptorServer({ fetch: app.fetch });
  const sockets = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  let listening = true;

  async function stopListening() {
    if (!listening) return;
    listening = false;
    const closed = new Promise((resolve) => server.close(resolve));
    for (const socket of sockets) socket.destroy();
    await closed;
  }

  const upstream: FaultUpstream = {
    url: `http://127.0.0.1:${port}`,
    calls,
    slowMs: options.slowMs ?? 1000,
    get openAnswers() {
      return open.size;
    },
    async use(next) {
      rule = next;
      if (next === "refuse") return stopListening();
      if (listening) return;
      server.listen(port, "127.0.0.1");
      await once(server, "listening");
      listening = true;
    },
    close: stopListening,
  };
  return upstream;
}
