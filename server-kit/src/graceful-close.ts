import type { Server, ServerResponse } from "node:http";
import type { Logger, LogFields } from "./logger.ts";

/** Where the closer says it cut connections. */
export type CloseLogger = Pick<Logger, "warn">;

/**
 * How the service and the proxy stop on SIGTERM: the listening socket closes
 * at once (nothing new is accepted), idle keep-alive connections are closed, each request in
 * flight finishes and its connection closes after it (Connection: close), and whatever is
 * still open after `graceMs` is cut. Resolves when the last connection has gone.
 *
 * Without the per-response close, a request in flight on a keep-alive connection (the proxy
 * keeps every upstream connection alive) left that connection open once answered, and every
 * stop waited out the whole grace time.
 */
export function gracefulCloser(server: Server, logger: CloseLogger) {
  const inFlight = new Set<ServerResponse>();
  let closing = false;

  server.on("request", (_request, response: ServerResponse) => {
    inFlight.add(response);
    // Sent on a connection accepted before the stop: answered, then the connection closes.
    if (closing) response.setHeader("Connection", "close");
    response.on("close", () => {
      inFlight.delete(response);
      // A response whose headers had already gone out leaves its connection open: close it
      // once idle rather than wait for the keep-alive time-out.
      if (closing) setImmediate(() => server.closeIdleConnections());
    });
  });

  return function close(graceMs: number): Promise<{ inFlight: number }> {
    closing = true;
    const atStop = inFlight.size;
    for (const response of inFlight)
      if (!response.headersSent) response.setHeader("Connection", "close");
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        logger.warn("closing connections still open after the grace time", {
          requests: inFlight.size,
          graceMs,
        });
        server.closeAllConnections();
      }, graceMs);
      server.close(() => {
        clearTimeout(timer);
        resolve({ inFlight: atStop });
      });
      server.closeIdleConnections();
    });
  };
}

export interface StopOptions {
  logger: Logger;
  /** How long requests in flight may take to finish before their connections are cut. */
  graceMs: number;
  /** The line logged once nothing new is accepted, with the signal and `fields`. */
  stopping: string;
  fields?: LogFields;
  /** What else to close once the connections are gone: the database, the upstream pool. */
  close: () => Promise<void>;
}

/**
 * How the service and the proxy stop on SIGINT and SIGTERM (npm start's children get Ctrl-C's
 * SIGINT from the terminal and a SIGTERM from npm start): once, however many signals come;
 * the server closes gracefully, then `close`, then "stopped" is logged and the process exits
 * 0. Attached at start-up, so it knows the requests in flight when the signal comes.
 */
export function stopOnSignals(server: Server, options: StopOptions): void {
  const closeGracefully = gracefulCloser(server, options.logger);
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    // The listening socket closes at once; the line is logged after, so it is true when read.
    const closed = closeGracefully(options.graceMs);
    options.logger.info(options.stopping, { signal, ...options.fields });
    void closed.then(async ({ inFlight }) => {
      await options.close();
      options.logger.info("stopped", { finishedInFlight: inFlight });
      process.exit(0);
    });
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}
