/**
 * `@vics/shared/testing/slow-client`: clients that send a request slowly over a real socket,
 * for the service's and the proxy's slow-request tests. In process (app.request) nothing
 * times a request out; only Node's server does (with serverTimeouts from
 * @vics/shared/server/server-timeouts), so these go through a listening server.
 */
import { request } from "node:http";
import { connect } from "node:net";

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
 * Sends the headers at once, then the body a few bytes at a time, every `everyMs`, and never
 * its end. Resolves with the answer, or with `status: null` when the server hangs up first.
 */
export function trickleBody(options: {
  port: number;
  method: string;
  path: string;
  headers: Record<string, string>;
  /** What goes first, e.g. '{"registrations":['. */
  start: string;
  /** Sent again and again. */
  chunk: string;
  everyMs: number;
}): Promise<SlowAnswer> {
  const client = request({
    host: "127.0.0.1",
    port: options.port,
    method: options.method,
    path: options.path,
    headers: { ...options.headers, "Transfer-Encoding": "chunked" },
  });
  const timer = setInterval(() => {
    if (!client.destroyed) client.write(options.chunk);
  }, options.everyMs);
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
  client.write(options.start);
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
  everyMs: number;
}): Promise<SlowAnswer> {
  const socket = connect(options.port, "127.0.0.1");
  let received = "";
  const timer = setInterval(() => {
    if (!socket.destroyed) socket.write("a");
  }, options.everyMs);
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
