// `@vics/shared/testing/free-port`: a port free on loopback now, for the e2e suite, the soak and
// the bench, which start servers of their own; and whether something listens on one, for the
// tests that check a server has gone. Test and tool support, never imported by an app.
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { connect, createServer } from "node:net";

/** Linux's default range for a client connection's own end, where /proc cannot tell. */
const LINUX_DEFAULT: EphemeralRange = { low: 32_768, high: 60_999 };

export interface EphemeralRange {
  low: number;
  high: number;
}

/**
 * The ports the kernel hands a client connection as its own end (Linux's ip_local_port_range).
 * A port the kernel gave a listener on port 0 comes from that range too, so a client
 * connection opened between handing it out and the server's listen (a replica restarted, a
 * pool's next connection) can take it, and the server then finds it in use for as long as
 * that connection lives: a cluster replica did, for 3 minutes. The ports handed out here come
 * from outside it, where no connection's own end lands.
 */
export function ephemeralRange(
  read: () => string = () =>
    readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8"),
): EphemeralRange {
  try {
    const [low, high] = read().trim().split(/\s+/).map(Number);
    return Number.isInteger(low) && Number.isInteger(high) && low! <= high!
      ? { low: low!, high: high! }
      : LINUX_DEFAULT;
  } catch {
    return LINUX_DEFAULT;
  }
}

/** Where the ports come from: above the registered services most machines run. */
const FIRST = 10_000;
const LAST = 65_535;
/** Fewer free ports than this on a side of the range, and that side is not used. */
const ENOUGH = 1_000;

/** The span ports are drawn from: below the range, or above it when it starts too low. */
export function portSpan({ low, high }: EphemeralRange): EphemeralRange {
  if (low - FIRST >= ENOUGH) return { low: FIRST, high: low - 1 };
  if (LAST - high >= ENOUGH) return { low: high + 1, high: LAST };
  throw new Error(
    `the kernel's range for client connections (${low}-${high}, ip_local_port_range) leaves too few ports outside it for test servers`,
  );
}

/** Ports this process handed out already: never twice, even once their server has gone. */
const handedOut = new Set<number>();

/** A loopback port nothing listens on now, outside the range client connections take theirs from. */
export async function freePort(
  random: () => number = Math.random,
  range: EphemeralRange = ephemeralRange(),
  given: Set<number> = handedOut,
): Promise<number> {
  const span = portSpan(range);
  for (let tries = 0; tries < 200; tries++) {
    const port = span.low + Math.floor(random() * (span.high - span.low + 1));
    if (given.has(port) || !(await canListen(port))) continue;
    given.add(port);
    return port;
  }
  throw new Error(
    `no free loopback port between ${span.low} and ${span.high} after 200 tries`,
  );
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen({ port, host: "127.0.0.1", exclusive: true }, () =>
      server.close(() => resolve(true)),
    );
  });
}

/** Whether something accepts a connection on the loopback port. */
export async function listening(port: number): Promise<boolean> {
  const socket = connect(port, "127.0.0.1");
  try {
    await once(socket, "connect");
    return true;
  } catch {
    return false;
  } finally {
    socket.destroy();
  }
}
