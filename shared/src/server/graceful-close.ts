import type { Server, ServerResponse } from "node:http";

/** Where the closer says it cut connections: the service's and the proxy's loggers both fit. */
export interface CloseLogger {
  warn(message: string, fields?: Record<string, unknown>): void;
}

/**
 * How the service and the proxy stop on SIGTERM (issue 9): the listening socket closes
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
