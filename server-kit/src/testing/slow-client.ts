/**
 * `@vics/server-kit/testing/slow-client`: clients that send a request slowly over a real socket,
 * for the service's and the proxy's slow-request tests. In process (app.request) nothing
 * times a request out; only Node's server does (with serverTimeouts from
 * ../server-timeouts.ts), so these go through a listening server.
 */
import { type ClientRequest, request } from "node:http";
import { connect } from "node:net";
import { describe, expect, it } from "vitest";

export interface SlowAnswer {
  /** The status answered, or null when the server closed the connection without one. */
  status: number | null;
  body: string;
}

/** Past this a slow request has neither been answered nor cut off: the server hangs. */
export const SLOW_REQUEST_DEADLINE_MS = 10_000;

function deadline<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `${what}: neither answered nor closed within ${SLOW_REQUEST_DEADLINE_MS} ms`,
          ),
        ),
      SLOW_REQUEST_DEADLINE_MS,
    );
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

/**
 * A request whose body goes chunked (no Content-Length), on a connection of its own: one the
 * server closed after an earlier refusal is never reused. The caller writes the body.
 */
export function openChunkedRequest(options: {
  port: number;
  method: string;
  path: string;
  headers: Record<string, string>;
}): ClientRequest {
  return request({
    host: "127.0.0.1",
    port: options.port,
    method: options.method,
    path: options.path,
    headers: { ...options.headers, "Transfer-Encoding": "chunked" },
    agent: false,
  });
}

/** How often a slow client sends its next few bytes, unless told otherwise. */
const EVERY_MS = 100;

/**
 * Sends the headers at once, then the body a few bytes at a time, every `everyMs`, and never
 * its end. Resolves with the answer, or with `status: null` when the server hangs up first.
 * By default the body is a bulk request's list that never closes.
 */
export function trickleBody(options: {
  port: number;
  method: string;
  path: string;
  headers: Record<string, string>;
  /** What goes first; default '{"registrations":['. */
  start?: string;
  /** Sent again and again; default '"AB12CDE",'. */
  chunk?: string;
  everyMs?: number;
}): Promise<SlowAnswer> {
  const {
    start = '{"registrations":[',
    chunk = '"AB12CDE",',
    everyMs = EVERY_MS,
  } = options;
  const client = openChunkedRequest(options);
  const timer = setInterval(() => {
    if (!client.destroyed) client.write(chunk);
  }, everyMs);
  const answer = new Promise<SlowAnswer>((resolve) => {
    client.on("error", () => resolve({ status: null, body: "" }));
    client.on("close", () => resolve({ status: null, body: "" }));
    client.on("response", (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (text: string) => (body += text));
      response.on("error", () => {});
      response.on("close", () =>
        resolve({ status: response.statusCode ?? null, body }),
      );
    });
  });
  client.write(start);
  return deadline(
    answer,
    `${options.method} ${options.path} with a trickling body`,
  ).finally(() => {
    clearInterval(timer);
    client.destroy();
  });
}

/**
 * Slowloris: the request line, then one header byte every `everyMs`, never the blank line
 * that ends the headers. Resolves with the status line's code, or null on a silent close.
 */
export function trickleHeaders(options: {
  port: number;
  requestLine: string;
  everyMs?: number;
}): Promise<SlowAnswer> {
  const socket = connect(options.port, "127.0.0.1");
  let received = "";
  const timer = setInterval(() => {
    if (!socket.destroyed) socket.write("a");
  }, options.everyMs ?? EVERY_MS);
  const answer = new Promise<SlowAnswer>((resolve) => {
    socket.setEncoding("utf8");
    socket.on("data", (text: string) => (received += text));
    socket.on("error", () => {});
    socket.on("close", () => {
      const status = /^HTTP\/1\.1 (\d{3})/.exec(received)?.[1];
      resolve({ status: status ? Number(status) : null, body: received });
    });
  });
  socket.write(`${options.requestLine}\r\nHost: 127.0.0.1\r\nX-Slow: `);
  return deadline(
    answer,
    `${options.requestLine} with trickling headers`,
  ).finally(() => {
    clearInterval(timer);
    socket.destroy();
  });
}

export interface SlowClientTests {
  /** The app on its socket, served with a short request timeout in the caller's beforeAll. */
  port: () => number;
  /** Headers of each trickled body, besides its JSON content type (the service's key). */
  headers?: () => Record<string, string>;
  /** A request per route: its method, its path, and the statuses it may answer before 408. */
  bodies: ReadonlyArray<readonly [string, string, readonly number[]]>;
  /** The request line sent with headers that never end. */
  requestLine: string;
  /** What else a trickled body's case must hold, told its answer. */
  afterBody?: (answer: SlowAnswer) => void;
  /** After every case: the app still answers a real check, and logged no error. */
  expectStillServing: () => Promise<void>;
}

/**
 * The slow-client cases the service and the proxy both meet, as vitest tests: a body that
 * trickles in and never ends, on every route, and headers that never end. Each case fails if
 * it is neither answered nor cut off within SLOW_REQUEST_DEADLINE_MS.
 */
export function slowClientTests(suite: SlowClientTests): void {
  describe("a request body that trickles in and never ends", () => {
    it.each(suite.bodies)(
      "%s %s: answered (%j) or cut off, and the server stays up",
      async (method, path, statuses) => {
        const answer = await trickleBody({
          port: suite.port(),
          method,
          path,
          headers: { "Content-Type": "application/json", ...suite.headers?.() },
        });
        // Cut off at the request timeout: the server's 408 and its close can meet the client's
        // next chunk, whose write then fails (EPIPE) before the 408 is read. Cut off either way.
        const allowed = statuses.includes(408) ? [...statuses, null] : statuses;
        expect(allowed).toContain(answer.status);
        suite.afterBody?.(answer);
        await suite.expectStillServing();
      },
      SLOW_REQUEST_DEADLINE_MS + 5_000,
    );
  });

  describe("request headers that trickle in and never end", () => {
    it(
      "are cut off with a 408, and the server stays up",
      async () => {
        const answer = await trickleHeaders({
          port: suite.port(),
          requestLine: suite.requestLine,
        });
        expect(answer.status).toBe(408);
        await suite.expectStillServing();
      },
      SLOW_REQUEST_DEADLINE_MS + 5_000,
    );
  });
}
