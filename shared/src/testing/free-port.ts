// `@vics/shared/testing/free-port`: a port free on loopback now, for the e2e suite, the soak and
// the bench, which start servers of their own; and whether something listens on one, for the
// tests that check a server has gone. Test and tool support, never imported by an app.
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { connect, createServer } from "node:net";

/**
 * The lowest port the kernel hands a client connection as its own end (Linux's
 * ip_local_port_range, 32768-60999 unless changed). A port the kernel gave a listener on port 0
 * comes from that range too, so a client connection opened between handing it out and the
 * server's listen (a replica restarted, a pool's next connection) can take it, and the server
 * then finds it in use for as long as that connection lives: a cluster replica did, for 3
 * minutes. The ports handed out here come from below it, where no connection's own end lands.
 */
export function ephemeralLow(
  read: () => string = () =>
    readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8"),
): number {
  try {
    const low = Number(read().trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > FIRST + 1_000 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

/** Where the ports come from: above the registered services most machines run. */
const FIRST = 10_000;

/** A loopback port nothing listens on now, below the range client connections take theirs from. */
export async function freePort(
  random: () => number = Math.random,
): Promise<number> {
  const low = ephemeralLow();
  for (let tries = 0; tries < 200; tries++) {
    const port = FIRST + Math.floor(random() * (low - FIRST));
    if (await canListen(port)) return port;
  }
  throw new Error(
    `no free loopback port between ${FIRST} and ${low - 1} after 200 tries`,
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
