import type { Server, ServerResponse } from "node:http";
import type { Logger } from "./logger.ts";

/**
 * Stopping without dropping a request: the listening socket closes at once (nothing new is
 * accepted), idle keep-alive connections are closed, each request in flight finishes and its
 * connection closes after it (Connection: close), and whatever is still open after `graceMs`
 * is closed. Resolves when the last connection has gone.
 */
export function gracefulCloser(server: Server, logger: Logger) {
  const inFlight = new Set<ServerResponse>();
  let closing = false;

  server.on("request", (_request, response: ServerResponse) => {
    inFlight.add(response);
    // A request on a connection accepted before the stop is still answered, and its
    // connection closed after it.
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
