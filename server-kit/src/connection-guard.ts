// How many connections the service's and the proxy's HTTP servers hold, and for how long an
// idle one is kept when they hold many. Without it, a script opening thousands of idle sockets
// kept each one until the 10 s headers timeout: a few such scripts brought the proxy to its
// 20,000 open files and it answered no one for 6 s. Node only, like ./server-timeouts.
import type { Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { addressKey } from "./address-key.ts";

export interface ConnectionLimits {
  /**
   * Open connections from one client address (an IPv6 /64 counts as one): the socket's peer,
   * so behind a NAT or a load balancer, everyone behind it together.
   */
  maxPerAddress: number;
  /** Open connections in all. Keep it well under the process's open-files limit. */
  maxTotal: number;
  /** From this many open connections on, the server is under pressure; default half of maxTotal. */
  pressureAt?: number;
  /** Under pressure, a connection idle this long is closed (otherwise Node's timeouts apply). */
  idleUnderPressureMs: number;
}

/**
 * Defaults for a team of about 200 behind one NAT or load balancer address: a browser keeps up
 * to 6 connections to a host, and a connection over the address's cap first closes that
 * address's longest-idle one, so even 1,200 wanted connections rarely meet a refusal.
 */
export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  maxPerAddress: 1_000,
  maxTotal: 4_000,
  idleUnderPressureMs: 1_000,
};

/** Where the guard says what it closed: the service's and the proxy's loggers both fit. */
export interface GuardLogger {
  warn(message: string, fields?: Record<string, unknown>): void;
}

/** One open connection: idle while no request is in flight on it. */
interface Tracked {
  socket: Socket;
  key: string;
  inFlight: number;
  idleSince: number;
}

interface AddressEntry {
  all: Set<Tracked>;
  /** Idle connections, longest idle first (a Set keeps insertion order). */
  idle: Set<Tracked>;
}

export interface ConnectionGuard {
  /** Open connections, from one address (counted as addressKey counts it) or in all. */
  open(address?: string): number;
  /** Under pressure, closes every connection idle for idleUnderPressureMs; runs on a timer too. */
  sweep(): void;
  /** Stops the timer; the server's "close" does it too. */
  stop(): void;
}

export interface GuardOptions {
  logger?: GuardLogger;
  /** Milliseconds, for idle times; tests pass a clock they move. */
  now?: () => number;
  /** How long between warnings in the log, at most one per interval. */
  logEveryMs?: number;
}

/**
 * Caps the connections of a node:http server per client address and in all, and closes idle
 * ones early under pressure:
 * - A new connection over its address's cap closes that address's longest-idle connection, or,
 *   when every one is busy with a request, is itself closed at once. So one address can hold
 *   at most `maxPerAddress`, and cannot take anyone else's.
 * - A new connection over `maxTotal` does the same across all addresses.
 * - While `pressureAt` or more are open, connections idle for `idleUnderPressureMs` (keep-alive
 *   ones between requests, and ones that have not sent a whole request yet) are closed, instead
 *   of waiting for the keep-alive (5 s) or headers (10 s) timeout.
 * A connection with a request in flight is never closed here.
 */
export function guardConnections(
  server: Server,
  limits: ConnectionLimits,
  options: GuardOptions = {},
): ConnectionGuard {
  const now = options.now ?? (() => performance.now());
  const pressureAt = limits.pressureAt ?? Math.ceil(limits.maxTotal / 2);
  const byAddress = new Map<string, AddressEntry>();
  const all = new Set<Tracked>();
  const idle = new Set<Tracked>();
  const bySocket = new WeakMap<Socket, Tracked>();

  // What was closed since the last warning: logged at most once per logEveryMs.
  const logEveryMs = options.logEveryMs ?? 60_000;
  let lastLogged = -Infinity;
  const counts = { refused: 0, closedForRoom: 0, closedIdle: 0 };
  function report() {
    if (!options.logger || now() - lastLogged < logEveryMs) return;
    lastLogged = now();
    options.logger.warn("closing connections: connection limits reached", {
      ...counts,
      open: all.size,
      ...limits,
      pressureAt,
    });
    counts.refused = counts.closedForRoom = counts.closedIdle = 0;
  }

  const becomeIdle = (tracked: Tracked) => {
    tracked.idleSince = now();
    idle.add(tracked);
    byAddress.get(tracked.key)?.idle.add(tracked);
  };
  const becomeBusy = (tracked: Tracked) => {
    idle.delete(tracked);
    byAddress.get(tracked.key)?.idle.delete(tracked);
  };
  const forget = (tracked: Tracked) => {
    all.delete(tracked);
    idle.delete(tracked);
    const entry = byAddress.get(tracked.key);
    entry?.all.delete(tracked);
    entry?.idle.delete(tracked);
    if (entry?.all.size === 0) byAddress.delete(tracked.key);
  };
  const close = (tracked: Tracked) => {
    forget(tracked);
    tracked.socket.destroy();
  };
  const first = (set: Set<Tracked>) => set.values().next().value;

  /** Makes room for one more in `set` by closing its longest-idle connection, if it has one. */
  function madeRoom(set: Set<Tracked>): boolean {
    const oldest = first(set);
    if (oldest === undefined) return false;
    close(oldest);
    counts.closedForRoom++;
    return true;
  }

  function sweep() {
    if (all.size < pressureAt) return;
    const before = now() - limits.idleUnderPressureMs;
    for (const tracked of idle) {
      // Longest idle first: the rest have been idle for less.
      if (tracked.idleSince > before) break;
      close(tracked);
      counts.closedIdle++;
    }
    if (counts.closedIdle > 0) report();
  }

  server.on("connection", (socket: Socket) => {
    const key = addressKey(socket.remoteAddress ?? "unknown");
    let entry = byAddress.get(key);
    const refuse = () => {
      counts.refused++;
      report();
      socket.destroy();
    };
    if (
      entry &&
      entry.all.size >= limits.maxPerAddress &&
      !madeRoom(entry.idle)
    )
      return refuse();
    if (all.size >= limits.maxTotal && !madeRoom(idle)) return refuse();
    // madeRoom may have removed the address's last entry.
    entry = byAddress.get(key);
    if (!entry) {
      entry = { all: new Set(), idle: new Set() };
      byAddress.set(key, entry);
    }
    const tracked: Tracked = { socket, key, inFlight: 0, idleSince: now() };
    all.add(tracked);
    entry.all.add(tracked);
    becomeIdle(tracked);
    bySocket.set(socket, tracked);
    socket.once("close", () => forget(tracked));
    if (counts.closedForRoom > 0) report();
    // A burst past pressureAt starts closing idle ones now, not at the next tick.
    if (all.size >= pressureAt) sweep();
  });

  server.on("request", (request, response: ServerResponse) => {
    const tracked = bySocket.get(request.socket);
    if (!tracked || !all.has(tracked)) return;
    tracked.inFlight++;
    becomeBusy(tracked);
    response.once("close", () => {
      tracked.inFlight--;
      if (tracked.inFlight === 0 && all.has(tracked)) becomeIdle(tracked);
    });
  });

  const timer = setInterval(
    sweep,
    Math.max(50, Math.min(1_000, limits.idleUnderPressureMs / 2)),
  );
  timer.unref();
  const stop = () => clearInterval(timer);
  server.once("close", stop);

  return {
    open: (address) =>
      address === undefined
        ? all.size
        : (byAddress.get(addressKey(address))?.all.size ?? 0),
    sweep,
    stop,
  };
}
